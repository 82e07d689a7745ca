/* ring.c: 8 ranks in a ring.
 *
 * Every rank sends 100 messages of 1,000 bytes to its right neighbour
 * (rank+1), then 50 messages of 4,096 bytes to its left neighbour (rank-1),
 * using MPI_Sendrecv; finally every rank != 0 sends 10 messages of 8 bytes
 * to rank 0 (blocking MPI_Send / MPI_Recv).
 *
 * Totals: 8*100 + 8*50 + 7*10 = 1,270 messages,
 * 800,000 + 1,638,400 + 560 = 2,438,960 bytes.
 * Plain MPI; knows nothing about any tracing library.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 8) {
        if (rank == 0) fprintf(stderr, "ring: needs 8 ranks, got %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    static char sbuf[4096], rbuf[4096];
    memset(sbuf, rank, sizeof sbuf);
    for (int i = 0; i < 100; i++)
        MPI_Sendrecv(sbuf, 1000, MPI_BYTE, right, 1, rbuf, 1000, MPI_BYTE, left, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 50; i++)
        MPI_Sendrecv(sbuf, 4096, MPI_BYTE, left, 2, rbuf, 4096, MPI_BYTE, right, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) {
        for (int i = 0; i < 10 * (size - 1); i++)
            MPI_Recv(rbuf, 8, MPI_BYTE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        for (int i = 0; i < 10; i++)
            MPI_Send(sbuf, 8, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
