/* grid.c: 16 ranks on a 4x4 periodic grid exchange halos.
 *
 * Each of S steps (argv[1], default 20) every rank posts MPI_Irecv and
 * MPI_Isend of 2,048 bytes with its 4 neighbours (tag = direction) and
 * waits with MPI_Waitall. After the loop every rank != 0 sends 64 bytes to
 * rank 0 (blocking MPI_Send; rank 0 receives with MPI_ANY_SOURCE).
 *
 * With 20 steps: 16*4*20 + 15 = 1,295 messages, 1,280*2,048 + 15*64 =
 * 2,622,400 bytes, 64 + 15 - 4 = 75 distinct (src,dst) pairs.
 * Plain MPI; knows nothing about any tracing library.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM 4
#define HALO 2048
#define FINAL 64

int main(int argc, char **argv) {
    int rank, size, steps = 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) steps = atoi(argv[1]);
    if (size != DIM * DIM) {
        if (rank == 0) fprintf(stderr, "grid: needs %d ranks, got %d\n", DIM * DIM, size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int x = rank % DIM, y = rank / DIM;
    /* directions: 0 east, 1 west, 2 north, 3 south */
    int nb[4];
    nb[0] = y * DIM + (x + 1) % DIM;
    nb[1] = y * DIM + (x + DIM - 1) % DIM;
    nb[2] = ((y + DIM - 1) % DIM) * DIM + x;
    nb[3] = ((y + 1) % DIM) * DIM + x;
    /* a message sent in direction d arrives from direction opposite(d) */
    static const int opposite[4] = {1, 0, 3, 2};
    char *sbuf = malloc(4 * HALO), *rbuf = malloc(4 * HALO);
    memset(sbuf, rank, 4 * HALO);
    MPI_Request req[8];
    for (int s = 0; s < steps; s++) {
        for (int d = 0; d < 4; d++)
            /* receive from neighbour d what it sent in direction opposite(d) */
            MPI_Irecv(rbuf + d * HALO, HALO, MPI_BYTE, nb[d], opposite[d], MPI_COMM_WORLD, &req[d]);
        for (int d = 0; d < 4; d++)
            MPI_Isend(sbuf + d * HALO, HALO, MPI_BYTE, nb[d], d, MPI_COMM_WORLD, &req[4 + d]);
        MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    }
    char fin[FINAL];
    memset(fin, rank, FINAL);
    if (rank == 0) {
        for (int i = 1; i < size; i++)
            MPI_Recv(fin, FINAL, MPI_BYTE, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(fin, FINAL, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
