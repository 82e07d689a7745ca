//go:build ignore

// (The line above keeps the go tool from treating this C file as cgo source.)

/*
 * superstep_mpishim.c: a small PMPI interposition library that records the
 * point-to-point communication of an MPI program into an OTF2 archive.
 *
 * Build:  mpicc -shared -fPIC -O2 -o libsuperstep-mpishim.so superstep_mpishim.c -lopen-trace-format2
 * Use:    mpirun -x LD_PRELOAD=/path/libsuperstep-mpishim.so -x SUPERSTEP_OTF2_DIR=/out -np N prog
 *
 * Wrapped: MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Send, MPI_Recv,
 * MPI_Sendrecv, MPI_Isend, MPI_Irecv, MPI_Wait, MPI_Waitall, MPI_Comm_split,
 * MPI_Comm_free. Every wrapped call gets Enter/Leave events; messages get
 * MpiSend/MpiRecv (blocking; Sendrecv writes both), MpiIsend +
 * MpiIsendComplete, MpiIrecvRequest + MpiIrecv (with the actual source, tag
 * and byte count from the status).
 *
 * Timestamps are CLOCK_MONOTONIC nanoseconds (1e9 ticks per second). The
 * global offset in ClockProperties is the minimum start time over all ranks
 * (MPI_Allreduce MIN); no ClockOffset records are written, so timestamps of
 * ranks on different hosts are only comparable as far as their monotonic
 * clocks agree. On a single host they share one clock.
 *
 * Communicators: MPI_COMM_WORLD is comm 0. Communicators created by
 * MPI_Comm_split get their own Comm + COMM_GROUP definition whose members
 * are world ranks. Messages on any other communicator keep their Enter/Leave
 * events but no message events (the shim cannot name their members).
 *
 * The library never aborts the program: OTF2 errors are printed to stderr
 * ("superstep-mpishim: rank R: ...") and tracing is switched off.
 */
#include <mpi.h>
#include <otf2/otf2.h>
#define OTF2_MPI_USE_PMPI
#include <otf2/OTF2_MPI_Collectives.h>

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum region {
    R_INIT, R_INIT_THREAD, R_FINALIZE, R_SEND, R_RECV, R_SENDRECV, R_ISEND,
    R_IRECV, R_WAIT, R_WAITALL, R_COMM_SPLIT, R_COUNT
};
static const char *region_names[R_COUNT] = {
    "MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPI_Send", "MPI_Recv",
    "MPI_Sendrecv", "MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Waitall",
    "MPI_Comm_split",
};

#define COMM_WORLD_ID 0u
#define UNKNOWN_COMM OTF2_UNDEFINED_COMM
#define MAX_COMMS 256
#define REQ_BUCKETS 4096

struct req_entry {
    MPI_Request req;
    uint64_t id;
    int is_recv;
    uint32_t comm;
    struct req_entry *next;
};

struct comm_entry {
    MPI_Comm comm;
    uint32_t id;
};

/* A communicator this rank leads (rank 0 of the new comm): defined globally at the end. */
struct led_comm {
    uint32_t id, parent;
    int n;
    int *world_ranks;
};

static struct {
    int active;          /* tracing on */
    int rank, size;
    OTF2_Archive *archive;
    OTF2_EvtWriter *evt;
    uint64_t start, start_realtime;
    uint64_t next_req_id;
    struct req_entry *buckets[REQ_BUCKETS];
    struct req_entry *free_entries;
    struct comm_entry comms[MAX_COMMS];
    int ncomms;
    struct led_comm *led;
    int nled, capled;
    uint32_t split_seq;
} S;

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ok reports an OTF2 error on stderr and turns tracing off; returns 1 on success. */
static int ok(OTF2_ErrorCode code, const char *what) {
    if (code == OTF2_SUCCESS) return 1;
    fprintf(stderr, "superstep-mpishim: rank %d: %s failed: %s (%s); tracing disabled\n",
            S.rank, what, OTF2_Error_GetName(code), OTF2_Error_GetDescription(code));
    S.active = 0;
    return 0;
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *c, bool final) {
    (void)u; (void)ft; (void)l; (void)c; (void)final;
    return OTF2_FLUSH;
}
static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l) {
    (void)u; (void)ft; (void)l;
    return now_ns();
}
static OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

/* ---- events ---- */

static void enter(enum region r, uint64_t t) {
    if (S.active) ok(OTF2_EvtWriter_Enter(S.evt, NULL, t, r), "OTF2_EvtWriter_Enter");
}
static void leave(enum region r) {
    if (S.active) ok(OTF2_EvtWriter_Leave(S.evt, NULL, now_ns(), r), "OTF2_EvtWriter_Leave");
}

static uint64_t bytes_of(int count, MPI_Datatype t) {
    int sz = 0;
    if (count <= 0 || PMPI_Type_size(t, &sz) != MPI_SUCCESS || sz < 0) return 0;
    return (uint64_t)count * (uint64_t)sz;
}

static uint64_t status_bytes(const MPI_Status *st) {
    int n = 0;
    if (PMPI_Get_count(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0) return 0;
    return (uint64_t)n;
}

static uint32_t comm_id(MPI_Comm c) {
    if (c == MPI_COMM_WORLD) return COMM_WORLD_ID;
    for (int i = 0; i < S.ncomms; i++)
        if (S.comms[i].comm == c) return S.comms[i].id;
    return UNKNOWN_COMM;
}

static void comm_forget(MPI_Comm c) {
    for (int i = 0; i < S.ncomms; i++)
        if (S.comms[i].comm == c) {
            S.comms[i] = S.comms[--S.ncomms];
            return;
        }
}

/* ---- request table ---- */

static size_t req_hash(MPI_Request r) {
    uint64_t k = 0;
    memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)(k % REQ_BUCKETS);
}

static void req_put(MPI_Request r, uint64_t id, int is_recv, uint32_t comm) {
    struct req_entry *e = S.free_entries;
    if (e) S.free_entries = e->next;
    else if (!(e = malloc(sizeof *e))) return;
    e->req = r; e->id = id; e->is_recv = is_recv; e->comm = comm;
    size_t h = req_hash(r);
    e->next = S.buckets[h];
    S.buckets[h] = e;
}

/* req_take removes and returns the entry for r (caller gives it back with req_release). */
static struct req_entry *req_take(MPI_Request r) {
    if (r == MPI_REQUEST_NULL) return NULL;
    struct req_entry **p = &S.buckets[req_hash(r)];
    for (; *p; p = &(*p)->next)
        if ((*p)->req == r) {
            struct req_entry *e = *p;
            *p = e->next;
            return e;
        }
    return NULL;
}

static void req_release(struct req_entry *e) {
    e->next = S.free_entries;
    S.free_entries = e;
}

static void complete(MPI_Request saved, const MPI_Status *st) {
    struct req_entry *e = req_take(saved);
    if (!e) return;
    if (S.active) {
        if (!e->is_recv) {
            ok(OTF2_EvtWriter_MpiIsendComplete(S.evt, NULL, now_ns(), e->id), "MpiIsendComplete");
        } else if (st->MPI_SOURCE != MPI_PROC_NULL) {
            ok(OTF2_EvtWriter_MpiIrecv(S.evt, NULL, now_ns(), (uint32_t)st->MPI_SOURCE, e->comm,
                                       (uint32_t)st->MPI_TAG, status_bytes(st), e->id),
               "MpiIrecv");
        }
    }
    req_release(e);
}

/* ---- init ---- */

static void start_tracing(uint64_t t_enter, enum region r) {
    PMPI_Comm_rank(MPI_COMM_WORLD, &S.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &S.size);
    S.next_req_id = 1;
    const char *dir = getenv("SUPERSTEP_OTF2_DIR");
    if (!dir || !*dir) dir = "./superstep-trace";
    int good = 1;
    if (S.rank == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "superstep-mpishim: cannot create %s: %s; tracing disabled\n", dir, strerror(errno));
        good = 0;
    }
    S.start = t_enter;
    S.start_realtime = realtime_ns() - (now_ns() - t_enter);
    S.active = 1;
    int all = 0;
    PMPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) { S.active = 0; return; }
    S.archive = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                  OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    good = S.archive != NULL;
    if (!good) fprintf(stderr, "superstep-mpishim: rank %d: OTF2_Archive_Open(%s) failed; tracing disabled\n", S.rank, dir);
    PMPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        if (S.archive) OTF2_Archive_Close(S.archive);
        S.archive = NULL;
        S.active = 0;
        return;
    }
    good = ok(OTF2_Archive_SetFlushCallbacks(S.archive, &flush_callbacks, NULL), "SetFlushCallbacks") &&
           ok(OTF2_MPI_Archive_SetCollectiveCallbacks(S.archive, MPI_COMM_WORLD, MPI_COMM_NULL),
              "SetCollectiveCallbacks") &&
           ok(OTF2_Archive_OpenEvtFiles(S.archive), "OpenEvtFiles");
    if (good) {
        S.evt = OTF2_Archive_GetEvtWriter(S.archive, (OTF2_LocationRef)S.rank);
        if (!S.evt) {
            fprintf(stderr, "superstep-mpishim: rank %d: OTF2_Archive_GetEvtWriter failed; tracing disabled\n", S.rank);
            S.active = 0;
        }
    }
    enter(r, t_enter);
    leave(r);
}

int MPI_Init(int *argc, char ***argv) {
    uint64_t t = now_ns();
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS) start_tracing(t, R_INIT);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    uint64_t t = now_ns();
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS) start_tracing(t, R_INIT_THREAD);
    return rc;
}

/* ---- point to point ---- */

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    if (!S.active) return PMPI_Send(buf, count, type, dest, tag, comm);
    enter(R_SEND, now_ns());
    uint32_t c = comm_id(comm);
    if (S.active && dest != MPI_PROC_NULL && c != UNKNOWN_COMM)
        ok(OTF2_EvtWriter_MpiSend(S.evt, NULL, now_ns(), (uint32_t)dest, c, (uint32_t)tag, bytes_of(count, type)),
           "MpiSend");
    int rc = PMPI_Send(buf, count, type, dest, tag, comm);
    leave(R_SEND);
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status) {
    if (!S.active) return PMPI_Recv(buf, count, type, source, tag, comm, status);
    enter(R_RECV, now_ns());
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
    uint32_t c = comm_id(comm);
    if (S.active && rc == MPI_SUCCESS && st->MPI_SOURCE != MPI_PROC_NULL && c != UNKNOWN_COMM)
        ok(OTF2_EvtWriter_MpiRecv(S.evt, NULL, now_ns(), (uint32_t)st->MPI_SOURCE, c, (uint32_t)st->MPI_TAG,
                                  status_bytes(st)),
           "MpiRecv");
    leave(R_RECV);
    return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
                 MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status *status) {
    if (!S.active)
        return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
    enter(R_SENDRECV, now_ns());
    uint32_t c = comm_id(comm);
    if (S.active && dest != MPI_PROC_NULL && c != UNKNOWN_COMM)
        ok(OTF2_EvtWriter_MpiSend(S.evt, NULL, now_ns(), (uint32_t)dest, c, (uint32_t)stag, bytes_of(scount, stype)),
           "MpiSend");
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st);
    if (S.active && rc == MPI_SUCCESS && st->MPI_SOURCE != MPI_PROC_NULL && c != UNKNOWN_COMM)
        ok(OTF2_EvtWriter_MpiRecv(S.evt, NULL, now_ns(), (uint32_t)st->MPI_SOURCE, c, (uint32_t)st->MPI_TAG,
                                  status_bytes(st)),
           "MpiRecv");
    leave(R_SENDRECV);
    return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req) {
    if (!S.active) return PMPI_Isend(buf, count, type, dest, tag, comm, req);
    enter(R_ISEND, now_ns());
    uint32_t c = comm_id(comm);
    uint64_t id = S.next_req_id++;
    int traced = dest != MPI_PROC_NULL && c != UNKNOWN_COMM;
    if (S.active && traced)
        ok(OTF2_EvtWriter_MpiIsend(S.evt, NULL, now_ns(), (uint32_t)dest, c, (uint32_t)tag, bytes_of(count, type), id),
           "MpiIsend");
    int rc = PMPI_Isend(buf, count, type, dest, tag, comm, req);
    if (rc == MPI_SUCCESS && traced) req_put(*req, id, 0, c);
    leave(R_ISEND);
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *req) {
    if (!S.active) return PMPI_Irecv(buf, count, type, source, tag, comm, req);
    enter(R_IRECV, now_ns());
    uint32_t c = comm_id(comm);
    uint64_t id = S.next_req_id++;
    int traced = source != MPI_PROC_NULL && c != UNKNOWN_COMM;
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    if (rc == MPI_SUCCESS && traced) {
        if (S.active) ok(OTF2_EvtWriter_MpiIrecvRequest(S.evt, NULL, now_ns(), id), "MpiIrecvRequest");
        req_put(*req, id, 1, c);
    }
    leave(R_IRECV);
    return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status) {
    if (!S.active) return PMPI_Wait(req, status);
    enter(R_WAIT, now_ns());
    MPI_Request saved = *req;
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    int rc = PMPI_Wait(req, st);
    if (rc == MPI_SUCCESS) complete(saved, st);
    leave(R_WAIT);
    return rc;
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[]) {
    if (!S.active || count <= 0) return PMPI_Waitall(count, reqs, statuses);
    enter(R_WAITALL, now_ns());
    MPI_Request saved_small[16];
    MPI_Status st_small[16];
    MPI_Request *saved = count <= 16 ? saved_small : malloc((size_t)count * sizeof *saved);
    MPI_Status *st = statuses;
    if (statuses == MPI_STATUSES_IGNORE) st = count <= 16 ? st_small : malloc((size_t)count * sizeof *st);
    if (!saved || !st) { /* out of memory: call through untraced */
        if (saved && saved != saved_small) free(saved);
        if (st && st != statuses && st != st_small) free(st);
        int rc = PMPI_Waitall(count, reqs, statuses);
        leave(R_WAITALL);
        return rc;
    }
    memcpy(saved, reqs, (size_t)count * sizeof *saved);
    int rc = PMPI_Waitall(count, reqs, st);
    if (rc == MPI_SUCCESS)
        for (int i = 0; i < count; i++) complete(saved[i], &st[i]);
    if (saved != saved_small) free(saved);
    if (st != statuses && st != st_small) free(st);
    leave(R_WAITALL);
    return rc;
}

/* ---- communicators ---- */

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    if (!S.active) return PMPI_Comm_split(comm, color, key, newcomm);
    enter(R_COMM_SPLIT, now_ns());
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (rc != MPI_SUCCESS || *newcomm == MPI_COMM_NULL) {
        leave(R_COMM_SPLIT);
        return rc;
    }
    int nrank, n;
    PMPI_Comm_rank(*newcomm, &nrank);
    PMPI_Comm_size(*newcomm, &n);
    /* id = 1 + leader_world_rank*4096 + leader's sequence number, agreed by a Bcast from the leader */
    unsigned id = 0;
    if (nrank == 0) id = S.split_seq < 4095 ? 1u + (unsigned)S.rank * 4096u + S.split_seq++ : 0u;
    PMPI_Bcast(&id, 1, MPI_UNSIGNED, 0, *newcomm);
    if (id != 0 && S.ncomms < MAX_COMMS) {
        comm_forget(*newcomm);
        S.comms[S.ncomms].comm = *newcomm;
        S.comms[S.ncomms].id = id;
        S.ncomms++;
        if (nrank == 0) {
            MPI_Group g, wg;
            int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
            if (S.nled == S.capled) {
                int cap = S.capled ? 2 * S.capled : 8;
                struct led_comm *nl = realloc(S.led, (size_t)cap * sizeof *nl);
                if (nl) { S.led = nl; S.capled = cap; }
            }
            if (in && out && S.nled < S.capled) {
                for (int i = 0; i < n; i++) in[i] = i;
                PMPI_Comm_group(*newcomm, &g);
                PMPI_Comm_group(MPI_COMM_WORLD, &wg);
                PMPI_Group_translate_ranks(g, n, in, wg, out);
                PMPI_Group_free(&g);
                PMPI_Group_free(&wg);
                struct led_comm *l = &S.led[S.nled++];
                l->id = id;
                l->parent = comm_id(comm);
                l->n = n;
                l->world_ranks = out;
                out = NULL;
            }
            free(in);
            free(out);
        }
    }
    leave(R_COMM_SPLIT);
    return rc;
}

int MPI_Comm_free(MPI_Comm *comm) {
    if (comm) comm_forget(*comm);
    return PMPI_Comm_free(comm);
}

/* ---- finalize: close event files and write the global definitions ---- */

struct strtab {
    OTF2_GlobalDefWriter *w;
    uint32_t next;
};

static uint32_t str(struct strtab *t, const char *s) {
    uint32_t id = t->next++;
    ok(OTF2_GlobalDefWriter_WriteString(t->w, id, s), "WriteString");
    return id;
}

static void write_global_defs(uint64_t gstart, uint64_t gend, uint64_t realtime, const uint64_t *nevents,
                              const char *hosts, int hostlen, const int *commdefs, int ncommdefs) {
    OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(S.archive);
    if (!w) {
        fprintf(stderr, "superstep-mpishim: rank 0: OTF2_Archive_GetGlobalDefWriter failed\n");
        S.active = 0;
        return;
    }
    struct strtab t = {w, 0};
    ok(OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, gstart, gend - gstart + 1, realtime),
       "WriteClockProperties");
    uint32_t empty = str(&t, "");
    uint32_t mpi = str(&t, "MPI");
    ok(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, mpi, OTF2_PARADIGM_CLASS_PROCESS), "WriteParadigm");
    for (int r = 0; r < R_COUNT; r++) {
        uint32_t name = str(&t, region_names[r]);
        char alt[64];
        snprintf(alt, sizeof alt, "P%s", region_names[r]);
        uint32_t canon = str(&t, alt);
        OTF2_RegionRole role = r == R_INIT || r == R_INIT_THREAD || r == R_FINALIZE || r == R_COMM_SPLIT
                                   ? OTF2_REGION_ROLE_FUNCTION
                                   : OTF2_REGION_ROLE_POINT2POINT;
        ok(OTF2_GlobalDefWriter_WriteRegion(w, (OTF2_RegionRef)r, name, canon, empty, role, OTF2_PARADIGM_MPI,
                                            OTF2_REGION_FLAG_NONE, mpi, 0, 0),
           "WriteRegion");
    }
    /* system tree: machine -> one node per distinct host name */
    ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, str(&t, "machine"), str(&t, "machine"),
                                                OTF2_UNDEFINED_SYSTEM_TREE_NODE),
       "WriteSystemTreeNode");
    uint32_t node_class = str(&t, "node");
    uint32_t *node_of = calloc((size_t)S.size, sizeof *node_of);
    uint32_t nnodes = 0;
    uint32_t thread_name = str(&t, "Master thread");
    for (int r = 0; node_of && r < S.size; r++) {
        const char *h = hosts + (size_t)r * (size_t)hostlen;
        int first = r;
        for (int q = 0; q < r; q++)
            if (strncmp(h, hosts + (size_t)q * (size_t)hostlen, (size_t)hostlen) == 0) { first = q; break; }
        if (first == r) {
            node_of[r] = ++nnodes;
            ok(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, node_of[r], str(&t, h), node_class, 0),
               "WriteSystemTreeNode");
        } else {
            node_of[r] = node_of[first];
        }
        char name[48];
        snprintf(name, sizeof name, "MPI Rank %d", r);
        ok(OTF2_GlobalDefWriter_WriteLocationGroup(w, (OTF2_LocationGroupRef)r, str(&t, name),
                                                   OTF2_LOCATION_GROUP_TYPE_PROCESS, node_of[r],
                                                   OTF2_UNDEFINED_LOCATION_GROUP),
           "WriteLocationGroup");
        ok(OTF2_GlobalDefWriter_WriteLocation(w, (OTF2_LocationRef)r, thread_name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                              nevents[r], (OTF2_LocationGroupRef)r),
           "WriteLocation");
    }
    free(node_of);
    /* groups: 0 = COMM_LOCATIONS (location of every world rank), 1 = MPI_COMM_WORLD */
    uint64_t *members = malloc((size_t)S.size * sizeof *members);
    if (!members) return;
    for (int r = 0; r < S.size; r++) members[r] = (uint64_t)r;
    ok(OTF2_GlobalDefWriter_WriteGroup(w, 0, str(&t, "MPI locations"), OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                       OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)S.size, members),
       "WriteGroup");
    ok(OTF2_GlobalDefWriter_WriteGroup(w, 1, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                       OTF2_GROUP_FLAG_NONE, (uint32_t)S.size, members),
       "WriteGroup");
    ok(OTF2_GlobalDefWriter_WriteComm(w, COMM_WORLD_ID, str(&t, "MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM,
                                      OTF2_COMM_FLAG_NONE),
       "WriteComm");
    /* split communicators: records [id, parent, n, world ranks...] */
    uint32_t group = 2;
    for (int i = 0; i + 3 <= ncommdefs;) {
        uint32_t id = (uint32_t)commdefs[i], parent = (uint32_t)commdefs[i + 1];
        int n = commdefs[i + 2];
        if (n < 0 || n > S.size || i + 3 + n > ncommdefs) break;
        for (int k = 0; k < n; k++) members[k] = (uint64_t)commdefs[i + 3 + k];
        ok(OTF2_GlobalDefWriter_WriteGroup(w, group, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                           OTF2_GROUP_FLAG_NONE, (uint32_t)n, members),
           "WriteGroup");
        char name[64];
        snprintf(name, sizeof name, "MPI_Comm_split %u.%u", (id - 1) / 4096, (id - 1) % 4096);
        ok(OTF2_GlobalDefWriter_WriteComm(w, id, str(&t, name), group, parent, OTF2_COMM_FLAG_NONE), "WriteComm");
        group++;
        i += 3 + n;
    }
    free(members);
}

int MPI_Finalize(void) {
    if (!S.active) return PMPI_Finalize();
    enter(R_FINALIZE, now_ns());
    leave(R_FINALIZE);
    uint64_t end = now_ns();
    uint64_t nev = 0;
    if (S.active) ok(OTF2_EvtWriter_GetNumberOfEvents(S.evt, &nev), "GetNumberOfEvents");
    int good = S.active, all = 0;
    /* every rank takes part in the same collectives, whatever happened locally */
    PMPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all) {
        all = ok(OTF2_Archive_CloseEvtWriter(S.archive, S.evt), "CloseEvtWriter") &&
              ok(OTF2_Archive_CloseEvtFiles(S.archive), "CloseEvtFiles");
        if (all && ok(OTF2_Archive_OpenDefFiles(S.archive), "OpenDefFiles")) {
            OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(S.archive, (OTF2_LocationRef)S.rank);
            if (dw) ok(OTF2_Archive_CloseDefWriter(S.archive, dw), "CloseDefWriter");
            ok(OTF2_Archive_CloseDefFiles(S.archive), "CloseDefFiles");
        }
        good = S.active;
        PMPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    }
    if (all) {
        uint64_t gstart = 0, gend = 0, rt = 0;
        PMPI_Allreduce(&S.start, &gstart, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
        PMPI_Reduce(&end, &gend, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
        rt = S.start_realtime - (S.start - gstart);
        int hostlen = MPI_MAX_PROCESSOR_NAME;
        char host[MPI_MAX_PROCESSOR_NAME];
        memset(host, 0, sizeof host);
        int hl = 0;
        PMPI_Get_processor_name(host, &hl);
        host[MPI_MAX_PROCESSOR_NAME - 1] = 0;
        uint64_t *nevents = NULL;
        char *hosts = NULL;
        int *counts = NULL, *displs = NULL, *defs = NULL;
        if (S.rank == 0) {
            nevents = calloc((size_t)S.size, sizeof *nevents);
            hosts = calloc((size_t)S.size, (size_t)hostlen);
            counts = calloc((size_t)S.size, sizeof *counts);
            displs = calloc((size_t)S.size, sizeof *displs);
        }
        PMPI_Gather(&nev, 1, MPI_UINT64_T, nevents, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        PMPI_Gather(host, hostlen, MPI_CHAR, hosts, hostlen, MPI_CHAR, 0, MPI_COMM_WORLD);
        /* communicators this rank leads, flattened */
        int mylen = 0;
        for (int i = 0; i < S.nled; i++) mylen += 3 + S.led[i].n;
        int *mine = malloc((size_t)(mylen > 0 ? mylen : 1) * sizeof *mine);
        if (!mine) mylen = 0;
        for (int i = 0, p = 0; mine && i < S.nled; i++) {
            mine[p++] = (int)S.led[i].id;
            mine[p++] = (int)S.led[i].parent;
            mine[p++] = S.led[i].n;
            for (int k = 0; k < S.led[i].n; k++) mine[p++] = S.led[i].world_ranks[k];
        }
        PMPI_Gather(&mylen, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
        int total = 0;
        if (S.rank == 0 && counts && displs) {
            for (int r = 0; r < S.size; r++) { displs[r] = total; total += counts[r]; }
            defs = malloc((size_t)(total > 0 ? total : 1) * sizeof *defs);
        }
        PMPI_Gatherv(mine, mylen, MPI_INT, defs, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
        free(mine);
        if (S.rank == 0) {
            if (nevents && hosts && counts && displs && defs)
                write_global_defs(gstart, gend, rt, nevents, hosts, hostlen, defs, total);
            else
                fprintf(stderr, "superstep-mpishim: rank 0: out of memory writing definitions\n");
        }
        free(nevents); free(hosts); free(counts); free(displs); free(defs);
    }
    if (S.archive) ok(OTF2_Archive_Close(S.archive), "OTF2_Archive_Close");
    S.archive = NULL;
    S.active = 0;
    for (int i = 0; i < S.nled; i++) free(S.led[i].world_ranks);
    free(S.led);
    S.led = NULL;
    S.nled = S.capled = 0;
    return PMPI_Finalize();
}
