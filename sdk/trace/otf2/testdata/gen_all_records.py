#!/usr/bin/python3
"""Write an OTF2 archive that holds every record type Debian's libotf2 3.x
offers, for the otf2 package's tests: usage gen_all_records.py OUTDIR.

It uses the low-level bindings (_otf2) so that every global definition,
every local definition and every event class is written at least once:
metrics, attributes (attribute lists of several types before events),
I/O, RMA, threads, OpenMP, calling contexts, programs, parameters, source
code locations, properties, Cartesian topologies, communicators and an
inter-communicator, next to MPI point-to-point messages (blocking,
non-blocking, on a sub-communicator, on the inter-communicator, and with
local ids mapped through location 0's mapping tables).

Locations 0-3 are MPI ranks; location 4 is an OpenMP thread of rank 0 and
location 5 a GPU stream: both lie outside MPI's COMM_LOCATIONS group.
"""
import sys

import _otf2

TPS = 1000000000
T0 = 5000000000
RANKS = 4
UNDEF32 = 0xFFFFFFFF
UNDEF64 = 0xFFFFFFFFFFFFFFFF


def pre_flush(user_data, file_type, location, caller_data, final):
    return _otf2.FLUSH


def attr_value(**kw):
    v = _otf2.AttributeValue()
    for k, x in kw.items():
        setattr(v, k, x)
    return v


def main():
    out = sys.argv[1]
    ar = _otf2.Archive_Open(out, "traces", _otf2.FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                            _otf2.SUBSTRATE_POSIX, _otf2.COMPRESSION_NONE)
    fcb = _otf2.FlushCallbacks(pre_flush=pre_flush, post_flush=None)
    _otf2.Archive_SetFlushCallbacks(ar, fcb, None)
    _otf2.Archive_SetSerialCollectiveCallbacks(ar)
    _otf2.Archive_SetCreator(ar, "gen_all_records.py")
    _otf2.Archive_OpenDefFiles(ar)
    _otf2.Archive_OpenEvtFiles(ar)

    strings = [""]

    def s(text):
        if text not in strings:
            strings.append(text)
        return strings.index(text)

    # Global ids used below.
    ATTR_U64, ATTR_DBL, ATTR_STR, ATTR_I8, ATTR_LOC = range(5)
    R_MAIN, R_SEND, R_RECV, R_BARRIER, R_PUT, R_TASK = range(6)
    G_LOCS, G_WORLD, G_SUB, G_A, G_B, G_SELF, G_OMP_LOCS, G_REGIONS, G_METRIC = range(9)
    C_WORLD, C_SUB, C_SELF, C_INTER = range(4)
    MM_CYC, MM_TEMP = 0, 1
    M_CLASS, M_INST = 0, 1
    PARAM_I, PARAM_S, PARAM_U = range(3)
    WIN = 0
    IOP_POSIX = 0
    F_FILE, F_DIR = 0, 1
    H_STDOUT, H_FILE = 0, 1
    SCL = 0
    CC_MAIN, CC_SEND = 0, 1
    IG = 0
    CD_X, CD_Y = 0, 1
    CT = 0

    now = [T0 + 1000 * r for r in range(RANKS + 2)]

    def tick(loc, n=100):
        now[loc] += n
        return now[loc]

    def sync(dst, src):
        now[dst] = max(now[dst], now[src]) + 50

    ew = [_otf2.Archive_GetEvtWriter(ar, loc) for loc in range(RANKS + 2)]

    def alist(loc):
        al = _otf2.AttributeList_New()
        _otf2.AttributeList_AddUint64(al, ATTR_U64, 10 + loc)
        _otf2.AttributeList_AddDouble(al, ATTR_DBL, 2.5)
        _otf2.AttributeList_AddStringRef(al, ATTR_STR, s("attribute string"))
        _otf2.AttributeList_AddInt8(al, ATTR_I8, -3)
        _otf2.AttributeList_AddLocationRef(al, ATTR_LOC, loc)
        return al

    E = _otf2
    # Location 0 writes local ids, mapped by its mapping tables: local
    # region i is global region REGION_MAP[i], local comm j is COMM_MAP[j].
    REGION_MAP = [R_SEND, R_MAIN, R_RECV, R_BARRIER, R_PUT, R_TASK]
    COMM_MAP = [C_SUB, C_WORLD, C_SELF, C_INTER]
    lr = {g: i for i, g in enumerate(REGION_MAP)}
    lc = {g: i for i, g in enumerate(COMM_MAP)}

    def reg(loc, r):
        return lr[r] if loc == 0 else r

    def com(loc, c):
        return lc[c] if loc == 0 else c

    for r in range(RANKS):
        E.EvtWriter_ProgramBegin(ew[r], None, tick(r), s("prog"), [s("prog"), s("-n")])
        E.EvtWriter_Enter(ew[r], alist(r), tick(r), reg(r, R_MAIN))

    # Rank 0: every event class the reader does not turn into messages.
    w, t = ew[0], lambda: tick(0)
    E.EvtWriter_BufferFlush(w, None, t(), now[0] + 5)
    E.EvtWriter_MeasurementOnOff(w, None, t(), E.MEASUREMENT_OFF)
    E.EvtWriter_MeasurementOnOff(w, alist(0), t(), E.MEASUREMENT_ON)
    E.EvtWriter_OmpFork(w, alist(0), t(), 2)
    E.EvtWriter_OmpAcquireLock(w, None, t(), 1, 1)
    E.EvtWriter_OmpReleaseLock(w, None, t(), 1, 1)
    E.EvtWriter_OmpTaskCreate(w, None, t(), 77)
    E.EvtWriter_OmpTaskSwitch(w, None, t(), 77)
    E.EvtWriter_OmpTaskComplete(w, None, t(), 77)
    E.EvtWriter_OmpJoin(w, None, t())
    E.EvtWriter_Metric(w, alist(0), t(), M_CLASS, [E.TYPE_UINT64, E.TYPE_DOUBLE],
                       [E.MetricValue(unsigned_int=123456789), E.MetricValue(floating_point=36.6)])
    E.EvtWriter_Metric(w, None, t(), M_INST, [E.TYPE_UINT64, E.TYPE_DOUBLE],
                       [E.MetricValue(unsigned_int=1), E.MetricValue(floating_point=-1.0)])
    E.EvtWriter_ParameterString(w, None, t(), PARAM_S, s("a parameter value"))
    E.EvtWriter_ParameterInt(w, None, t(), PARAM_I, -42)
    E.EvtWriter_ParameterUnsignedInt(w, None, t(), PARAM_U, 1 << 40)
    E.EvtWriter_RmaWinCreate(w, None, t(), WIN)
    E.EvtWriter_RmaCollectiveBegin(w, None, t())
    E.EvtWriter_RmaCollectiveEnd(w, None, t(), E.COLLECTIVE_OP_BARRIER, E.RMA_SYNC_LEVEL_PROCESS,
                                 WIN, UNDEF32, 0, 0)
    E.EvtWriter_RmaGroupSync(w, None, t(), E.RMA_SYNC_LEVEL_MEMORY, WIN, G_WORLD)
    E.EvtWriter_RmaRequestLock(w, None, t(), WIN, 1, 5, E.LOCK_EXCLUSIVE)
    E.EvtWriter_RmaAcquireLock(w, None, t(), WIN, 1, 5, E.LOCK_EXCLUSIVE)
    E.EvtWriter_RmaTryLock(w, None, t(), WIN, 1, 5, E.LOCK_SHARED)
    E.EvtWriter_Enter(w, None, t(), reg(0, R_PUT))
    E.EvtWriter_RmaPut(w, alist(0), t(), WIN, 1, 4096, 900)
    E.EvtWriter_RmaGet(w, None, t(), WIN, 2, 2048, 901)
    E.EvtWriter_RmaAtomic(w, None, t(), WIN, 3, E.RMA_ATOMIC_TYPE_ACCUMULATE, 8, 8, 902)
    E.EvtWriter_RmaOpTest(w, None, t(), WIN, 900)
    E.EvtWriter_RmaOpCompleteBlocking(w, None, t(), WIN, 900)
    E.EvtWriter_RmaOpCompleteNonBlocking(w, None, t(), WIN, 901)
    E.EvtWriter_RmaOpCompleteRemote(w, None, t(), WIN, 902)
    E.EvtWriter_Leave(w, None, t(), reg(0, R_PUT))
    E.EvtWriter_RmaSync(w, None, t(), WIN, 1, E.RMA_SYNC_TYPE_MEMORY)
    E.EvtWriter_RmaWaitChange(w, None, t(), WIN)
    E.EvtWriter_RmaReleaseLock(w, None, t(), WIN, 1, 5)
    E.EvtWriter_RmaWinDestroy(w, None, t(), WIN)
    E.EvtWriter_ThreadFork(w, None, t(), E.PARADIGM_OPENMP, 2)
    E.EvtWriter_ThreadTeamBegin(w, None, t(), G_OMP_LOCS)
    E.EvtWriter_ThreadAcquireLock(w, None, t(), E.PARADIGM_OPENMP, 3, 1)
    E.EvtWriter_ThreadReleaseLock(w, None, t(), E.PARADIGM_OPENMP, 3, 1)
    E.EvtWriter_Enter(w, None, t(), reg(0, R_TASK))
    E.EvtWriter_ThreadTaskCreate(w, None, t(), G_OMP_LOCS, 0, 1)
    E.EvtWriter_ThreadTaskSwitch(w, None, t(), G_OMP_LOCS, 0, 1)
    E.EvtWriter_ThreadTaskComplete(w, None, t(), G_OMP_LOCS, 0, 1)
    E.EvtWriter_Leave(w, None, t(), reg(0, R_TASK))
    E.EvtWriter_ThreadTeamEnd(w, None, t(), G_OMP_LOCS)
    E.EvtWriter_ThreadJoin(w, None, t(), E.PARADIGM_OPENMP)
    E.EvtWriter_ThreadCreate(w, None, t(), G_OMP_LOCS, 1)
    E.EvtWriter_ThreadWait(w, None, t(), G_OMP_LOCS, 1)
    E.EvtWriter_CallingContextEnter(w, None, t(), CC_MAIN, 1)
    E.EvtWriter_CallingContextSample(w, alist(0), t(), CC_SEND, 2, IG)
    E.EvtWriter_CallingContextLeave(w, None, t(), CC_MAIN)
    E.EvtWriter_IoCreateHandle(w, None, t(), H_FILE, E.IO_ACCESS_MODE_READ_WRITE,
                               E.IO_CREATION_FLAG_CREATE, E.IO_STATUS_FLAG_NONE)
    E.EvtWriter_IoDuplicateHandle(w, None, t(), H_FILE, H_STDOUT, E.IO_STATUS_FLAG_NONE)
    E.EvtWriter_IoChangeStatusFlags(w, None, t(), H_FILE, E.IO_STATUS_FLAG_APPEND)
    E.EvtWriter_IoSeek(w, None, t(), H_FILE, 100, E.IO_SEEK_FROM_START, 100)
    E.EvtWriter_IoOperationBegin(w, alist(0), t(), H_FILE, E.IO_OPERATION_MODE_WRITE,
                                 E.IO_OPERATION_FLAG_NONE, 512, 1)
    E.EvtWriter_IoOperationTest(w, None, t(), H_FILE, 1)
    E.EvtWriter_IoOperationIssued(w, None, t(), H_FILE, 1)
    E.EvtWriter_IoOperationComplete(w, None, t(), H_FILE, 512, 1)
    E.EvtWriter_IoOperationBegin(w, None, t(), H_FILE, E.IO_OPERATION_MODE_READ,
                                 E.IO_OPERATION_FLAG_NON_BLOCKING, 64, 2)
    E.EvtWriter_IoOperationCancelled(w, None, t(), H_FILE, 2)
    E.EvtWriter_IoAcquireLock(w, None, t(), H_FILE, E.LOCK_EXCLUSIVE)
    E.EvtWriter_IoTryLock(w, None, t(), H_FILE, E.LOCK_SHARED)
    E.EvtWriter_IoReleaseLock(w, None, t(), H_FILE, E.LOCK_EXCLUSIVE)
    E.EvtWriter_IoDestroyHandle(w, None, t(), H_FILE)
    E.EvtWriter_IoDeleteFile(w, None, t(), IOP_POSIX, F_FILE)
    E.EvtWriter_CommCreate(w, None, t(), com(0, C_SUB))
    E.EvtWriter_CommDestroy(w, None, t(), com(0, C_SUB))

    # Point-to-point messages. 0 -> 1 blocking on world, with attribute
    # lists on both halves; location 0 writes local ids.
    for k in range(3):
        E.EvtWriter_Enter(ew[0], None, tick(0), reg(0, R_SEND))
        E.EvtWriter_MpiSend(ew[0], alist(0), tick(0), 1, com(0, C_WORLD), 7, 100 * (k + 1))
        E.EvtWriter_Leave(ew[0], None, tick(0), reg(0, R_SEND))
        sync(1, 0)
        E.EvtWriter_Enter(ew[1], None, tick(1), R_RECV)
        E.EvtWriter_MpiRecv(ew[1], alist(1), tick(1), 0, C_WORLD, 7, 100 * (k + 1))
        E.EvtWriter_Leave(ew[1], None, tick(1), R_RECV)
    # 3 -> 2 non-blocking, completed in reverse order, plus a test and a
    # cancelled request that never completes.
    E.EvtWriter_MpiIrecvRequest(ew[2], None, tick(2), 21)
    E.EvtWriter_MpiIrecvRequest(ew[2], alist(2), tick(2), 22)
    E.EvtWriter_MpiIrecvRequest(ew[2], None, tick(2), 23)
    sync(3, 2)
    E.EvtWriter_MpiIsend(ew[3], alist(3), tick(3), 2, C_WORLD, 1, 1000, 31)
    E.EvtWriter_MpiIsend(ew[3], None, tick(3), 2, C_WORLD, 2, 2000, 32)
    E.EvtWriter_MpiRequestTest(ew[3], None, tick(3), 31)
    E.EvtWriter_MpiIsendComplete(ew[3], None, tick(3), 32)
    E.EvtWriter_MpiIsendComplete(ew[3], alist(3), tick(3), 31)
    sync(2, 3)
    E.EvtWriter_MpiRequestTest(ew[2], None, tick(2), 22)
    E.EvtWriter_MpiIrecv(ew[2], None, tick(2), 3, C_WORLD, 2, 2000, 22)
    E.EvtWriter_MpiIrecv(ew[2], alist(2), tick(2), 3, C_WORLD, 1, 1000, 21)
    E.EvtWriter_MpiRequestCancelled(ew[2], None, tick(2), 23)
    # On the sub-communicator (world ranks 3 and 1): location 1 = sub rank
    # 1 sends to sub rank 0 = location 3.
    sync(1, 2)
    E.EvtWriter_MpiSend(ew[1], None, tick(1), 0, C_SUB, 44, 4444)
    sync(3, 1)
    E.EvtWriter_MpiRecv(ew[3], None, tick(3), 1, C_SUB, 44, 4444)
    # On the inter-communicator (group A = world ranks 0, 1; group B = 2,
    # 3): location 0 (A rank 0) sends to B rank 1 = location 3, location 2
    # (B rank 0) sends to A rank 1 = location 1.
    sync(0, 3)
    E.EvtWriter_MpiSend(ew[0], None, tick(0), 1, com(0, C_INTER), 55, 555)
    sync(3, 0)
    E.EvtWriter_MpiRecv(ew[3], None, tick(3), 0, C_INTER, 55, 555)
    sync(2, 3)
    E.EvtWriter_MpiIsend(ew[2], None, tick(2), 1, C_INTER, 56, 556, 41)
    E.EvtWriter_MpiIsendComplete(ew[2], None, tick(2), 41)
    sync(1, 2)
    E.EvtWriter_MpiIrecvRequest(ew[1], None, tick(1), 42)
    E.EvtWriter_MpiIrecv(ew[1], None, tick(1), 0, C_INTER, 56, 556, 42)
    # A message to self on MPI_COMM_SELF.
    E.EvtWriter_MpiSend(ew[2], None, tick(2), 0, C_SELF, 9, 9)
    E.EvtWriter_MpiRecv(ew[2], None, tick(2), 0, C_SELF, 9, 9)

    # Collectives: blocking and non-blocking, never messages.
    for r in range(RANKS):
        E.EvtWriter_Enter(ew[r], None, tick(r), reg(r, R_BARRIER))
        E.EvtWriter_MpiCollectiveBegin(ew[r], None, tick(r))
        E.EvtWriter_MpiCollectiveEnd(ew[r], alist(r), tick(r), E.COLLECTIVE_OP_BCAST, com(r, C_WORLD),
                                     0, 64 if r == 0 else 0, 0 if r == 0 else 64)
        E.EvtWriter_NonBlockingCollectiveRequest(ew[r], None, tick(r), 60 + r)
        E.EvtWriter_NonBlockingCollectiveComplete(ew[r], None, tick(r), E.COLLECTIVE_OP_ALLREDUCE,
                                                  com(r, C_WORLD), UNDEF32, 8, 8, 60 + r)
        E.EvtWriter_Leave(ew[r], None, tick(r), reg(r, R_BARRIER))
    for r in range(RANKS):
        E.EvtWriter_Leave(ew[r], None, tick(r), reg(r, R_MAIN))
        E.EvtWriter_ProgramEnd(ew[r], None, tick(r), 0)

    # The OpenMP thread and the GPU stream: not MPI locations.
    E.EvtWriter_ThreadBegin(ew[4], None, tick(4), G_OMP_LOCS, 1)
    E.EvtWriter_ThreadTeamBegin(ew[4], None, tick(4), G_OMP_LOCS)
    E.EvtWriter_Enter(ew[4], None, tick(4), R_TASK)
    E.EvtWriter_Leave(ew[4], None, tick(4), R_TASK)
    E.EvtWriter_ThreadTeamEnd(ew[4], None, tick(4), G_OMP_LOCS)
    E.EvtWriter_ThreadEnd(ew[4], None, tick(4), G_OMP_LOCS, 1)
    E.EvtWriter_Enter(ew[5], None, tick(5), R_MAIN)
    E.EvtWriter_Metric(ew[5], None, tick(5), M_INST, [E.TYPE_UINT64, E.TYPE_DOUBLE],
                       [E.MetricValue(unsigned_int=2), E.MetricValue(floating_point=3.0)])
    E.EvtWriter_Leave(ew[5], None, tick(5), R_MAIN)

    nevents = []
    for w in ew:
        nevents.append(E.EvtWriter_GetNumberOfEvents(w))
        E.Archive_CloseEvtWriter(ar, w)
    E.Archive_CloseEvtFiles(ar)

    # Local definitions: every class, on location 0; clock offsets on 1.
    for loc in range(RANKS + 2):
        dw = E.Archive_GetDefWriter(ar, loc)
        if loc == 0:
            E.DefWriter_WriteMappingTable(dw, E.MAPPING_REGION, E.IdMap_CreateFromUint64Array(REGION_MAP, False))
            E.DefWriter_WriteMappingTable(dw, E.MAPPING_COMM, E.IdMap_CreateFromUint64Array(COMM_MAP, False))
            E.DefWriter_WriteClockOffset(dw, T0, 0, 0.0)
            # Local ids of a not yet unified trace; the reader uses only the
            # mapping tables and clock offsets.
            E.DefWriter_WriteString(dw, 0, "local string")
            E.DefWriter_WriteAttribute(dw, 0, 0, 0, E.TYPE_UINT64)
            E.DefWriter_WriteSystemTreeNode(dw, 0, 0, 0, UNDEF32)
            E.DefWriter_WriteLocationGroup(dw, 0, 0, E.LOCATION_GROUP_TYPE_PROCESS, 0, UNDEF32)
            E.DefWriter_WriteLocation(dw, 0, 0, E.LOCATION_TYPE_CPU_THREAD, 10, 0)
            E.DefWriter_WriteRegion(dw, 0, 0, 0, 0, E.REGION_ROLE_FUNCTION, E.PARADIGM_USER, E.REGION_FLAG_NONE, 0, 1, 2)
            E.DefWriter_WriteCallsite(dw, 0, 0, 3, 0, 0)
            E.DefWriter_WriteCallpath(dw, 0, UNDEF32, 0)
            E.DefWriter_WriteGroup(dw, 0, 0, E.GROUP_TYPE_LOCATIONS, E.PARADIGM_UNKNOWN, E.GROUP_FLAG_NONE, [0])
            E.DefWriter_WriteMetricMember(dw, 0, 0, 0, E.METRIC_TYPE_OTHER, E.METRIC_ACCUMULATED_START,
                                          E.TYPE_UINT64, E.BASE_DECIMAL, 0, 0)
            E.DefWriter_WriteMetricClass(dw, 0, [0], E.METRIC_SYNCHRONOUS_STRICT, E.RECORDER_KIND_CPU)
            E.DefWriter_WriteMetricInstance(dw, 1, 0, 0, E.SCOPE_LOCATION, 0)
            E.DefWriter_WriteComm(dw, 0, 0, 0, UNDEF32, E.COMM_FLAG_NONE)
            E.DefWriter_WriteParameter(dw, 0, 0, E.PARAMETER_TYPE_INT64)
            E.DefWriter_WriteRmaWin(dw, 0, 0, 0, E.RMA_WIN_FLAG_NONE)
            E.DefWriter_WriteMetricClassRecorder(dw, 0, 0)
            E.DefWriter_WriteSystemTreeNodeProperty(dw, 0, 0, E.TYPE_UINT64, attr_value(uint64=1))
            E.DefWriter_WriteSystemTreeNodeDomain(dw, 0, E.SYSTEM_TREE_DOMAIN_MACHINE)
            E.DefWriter_WriteLocationGroupProperty(dw, 0, 0, E.TYPE_UINT64, attr_value(uint64=2))
            E.DefWriter_WriteLocationProperty(dw, 0, 0, E.TYPE_UINT64, attr_value(uint64=3))
            E.DefWriter_WriteCartDimension(dw, 0, 0, 2, E.CART_PERIODIC_FALSE)
            E.DefWriter_WriteCartTopology(dw, 0, 0, 0, [0])
            E.DefWriter_WriteCartCoordinate(dw, 0, 0, [1])
            E.DefWriter_WriteSourceCodeLocation(dw, 0, 0, 12)
            E.DefWriter_WriteCallingContext(dw, 0, 0, 0, UNDEF32)
            E.DefWriter_WriteCallingContextProperty(dw, 0, 0, E.TYPE_UINT64, attr_value(uint64=4))
            E.DefWriter_WriteInterruptGenerator(dw, 0, 0, E.INTERRUPT_GENERATOR_MODE_TIME, E.BASE_DECIMAL, -6, 1000)
            E.DefWriter_WriteIoFileProperty(dw, 0, 0, E.TYPE_UINT64, attr_value(uint64=5))
            E.DefWriter_WriteIoRegularFile(dw, 0, 0, 0)
            E.DefWriter_WriteIoDirectory(dw, 1, 0, 0)
            E.DefWriter_WriteIoHandle(dw, 0, 0, 0, 0, E.IO_HANDLE_FLAG_NONE, UNDEF32, UNDEF32)
            E.DefWriter_WriteIoPreCreatedHandleState(dw, 0, E.IO_ACCESS_MODE_WRITE_ONLY, E.IO_STATUS_FLAG_NONE)
            E.DefWriter_WriteCallpathParameter(dw, 0, 0, E.TYPE_INT64, attr_value(int64=-1))
            E.DefWriter_WriteInterComm(dw, 1, 0, 0, 1, 0, E.COMM_FLAG_NONE)
        elif loc == 1:
            E.DefWriter_WriteClockOffset(dw, T0, -300, 0.0)
            E.DefWriter_WriteClockOffset(dw, T0 + 100000, 900, 0.0)
        E.Archive_CloseDefWriter(ar, dw)
    E.Archive_CloseDefFiles(ar)

    # Global definitions: every class.
    gw = E.Archive_GetGlobalDefWriter(ar)
    end = max(now)
    E.GlobalDefWriter_WriteClockProperties(gw, TPS, T0, end - T0, UNDEF64)
    E.GlobalDefWriter_WriteParadigm(gw, E.PARADIGM_MPI, s("MPI"), E.PARADIGM_CLASS_PROCESS)
    E.GlobalDefWriter_WriteParadigmProperty(gw, E.PARADIGM_MPI, E.PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                            E.TYPE_STRING, attr_value(stringRef=s("Comm ${id}")))
    E.GlobalDefWriter_WriteIoParadigm(gw, IOP_POSIX, s("POSIX"), s("POSIX I/O"), E.IO_PARADIGM_CLASS_SERIAL,
                                      E.IO_PARADIGM_FLAG_OS, [E.IO_PARADIGM_PROPERTY_VERSION],
                                      [E.TYPE_STRING], [attr_value(stringRef=s("2008"))])
    for name, typ in (("u64", E.TYPE_UINT64), ("dbl", E.TYPE_DOUBLE), ("str", E.TYPE_STRING),
                      ("i8", E.TYPE_INT8), ("loc", E.TYPE_LOCATION)):
        s(name)
    s("attribute string")
    s("prog")
    s("-n")
    s("a parameter value")
    names = {}
    for text in ("cluster", "machine", "node0", "node1", "node", "MPI Rank 0", "MPI Rank 1", "MPI Rank 2",
                 "MPI Rank 3", "GPU 0", "Master thread", "OMP thread 1", "CUDA stream", "main", "MPI_Send",
                 "MPI_Recv", "MPI_Bcast", "MPI_Put", "omp task", "src.c", "world locations", "world", "sub",
                 "A", "B", "self", "omp locations", "regions", "metric group", "MPI_COMM_WORLD", "SUB_COMM",
                 "MPI_COMM_SELF", "INTER_COMM", "cycles", "temperature", "#", "C", "iter", "label", "count",
                 "win", "file.txt", "/tmp", "stdout", "x", "y", "grid", "interrupts", "domain", "prop"):
        names[text] = s(text)
    for i, text in enumerate(strings):
        E.GlobalDefWriter_WriteString(gw, i, text)
    n = names
    for i, (name, typ) in enumerate((("u64", E.TYPE_UINT64), ("dbl", E.TYPE_DOUBLE), ("str", E.TYPE_STRING),
                                     ("i8", E.TYPE_INT8), ("loc", E.TYPE_LOCATION))):
        E.GlobalDefWriter_WriteAttribute(gw, i, s(name), s(name), typ)
    E.GlobalDefWriter_WriteSystemTreeNode(gw, 0, n["cluster"], n["machine"], UNDEF32)
    E.GlobalDefWriter_WriteSystemTreeNode(gw, 1, n["node0"], n["node"], 0)
    E.GlobalDefWriter_WriteSystemTreeNode(gw, 2, n["node1"], n["node"], 0)
    E.GlobalDefWriter_WriteSystemTreeNodeProperty(gw, 1, n["prop"], E.TYPE_STRING, attr_value(stringRef=n["x"]))
    E.GlobalDefWriter_WriteSystemTreeNodeDomain(gw, 1, E.SYSTEM_TREE_DOMAIN_SHARED_MEMORY)
    for r in range(RANKS):
        E.GlobalDefWriter_WriteLocationGroup(gw, r, n["MPI Rank %d" % r], E.LOCATION_GROUP_TYPE_PROCESS,
                                             1 + r // 2, UNDEF32)
    E.GlobalDefWriter_WriteLocationGroup(gw, RANKS, n["GPU 0"], E.LOCATION_GROUP_TYPE_ACCELERATOR, 1, 0)
    E.GlobalDefWriter_WriteLocationGroupProperty(gw, 0, n["prop"], E.TYPE_UINT64, attr_value(uint64=7))
    for r in range(RANKS):
        E.GlobalDefWriter_WriteLocation(gw, r, n["Master thread"], E.LOCATION_TYPE_CPU_THREAD, nevents[r], r)
    E.GlobalDefWriter_WriteLocation(gw, 4, n["OMP thread 1"], E.LOCATION_TYPE_CPU_THREAD, nevents[4], 0)
    E.GlobalDefWriter_WriteLocation(gw, 5, n["CUDA stream"], E.LOCATION_TYPE_ACCELERATOR_STREAM, nevents[5], RANKS)
    E.GlobalDefWriter_WriteLocationProperty(gw, 0, n["prop"], E.TYPE_DOUBLE, attr_value(float64=1.5))
    for rid, (name, role, par) in enumerate((("main", E.REGION_ROLE_FUNCTION, E.PARADIGM_USER),
                                             ("MPI_Send", E.REGION_ROLE_POINT2POINT, E.PARADIGM_MPI),
                                             ("MPI_Recv", E.REGION_ROLE_POINT2POINT, E.PARADIGM_MPI),
                                             ("MPI_Bcast", E.REGION_ROLE_COLL_ONE2ALL, E.PARADIGM_MPI),
                                             ("MPI_Put", E.REGION_ROLE_RMA, E.PARADIGM_MPI),
                                             ("omp task", E.REGION_ROLE_TASK, E.PARADIGM_OPENMP))):
        E.GlobalDefWriter_WriteRegion(gw, rid, n[name], n[name], n[name], role, par, E.REGION_FLAG_NONE,
                                      n["src.c"], 10 * rid, 10 * rid + 5)
    E.GlobalDefWriter_WriteCallsite(gw, 0, n["src.c"], 3, R_MAIN, R_SEND)
    E.GlobalDefWriter_WriteCallpath(gw, 0, UNDEF32, R_MAIN)
    E.GlobalDefWriter_WriteCallpath(gw, 1, 0, R_SEND)
    E.GlobalDefWriter_WriteGroup(gw, G_LOCS, n["world locations"], E.GROUP_TYPE_COMM_LOCATIONS, E.PARADIGM_MPI,
                                 E.GROUP_FLAG_NONE, list(range(RANKS)))
    E.GlobalDefWriter_WriteGroup(gw, G_WORLD, n["world"], E.GROUP_TYPE_COMM_GROUP, E.PARADIGM_MPI,
                                 E.GROUP_FLAG_NONE, list(range(RANKS)))
    E.GlobalDefWriter_WriteGroup(gw, G_SUB, n["sub"], E.GROUP_TYPE_COMM_GROUP, E.PARADIGM_MPI,
                                 E.GROUP_FLAG_NONE, [3, 1])
    E.GlobalDefWriter_WriteGroup(gw, G_A, n["A"], E.GROUP_TYPE_COMM_GROUP, E.PARADIGM_MPI,
                                 E.GROUP_FLAG_NONE, [0, 1])
    E.GlobalDefWriter_WriteGroup(gw, G_B, n["B"], E.GROUP_TYPE_COMM_GROUP, E.PARADIGM_MPI,
                                 E.GROUP_FLAG_NONE, [2, 3])
    E.GlobalDefWriter_WriteGroup(gw, G_SELF, n["self"], E.GROUP_TYPE_COMM_SELF, E.PARADIGM_MPI,
                                 E.GROUP_FLAG_NONE, [])
    E.GlobalDefWriter_WriteGroup(gw, G_OMP_LOCS, n["omp locations"], E.GROUP_TYPE_COMM_LOCATIONS,
                                 E.PARADIGM_OPENMP, E.GROUP_FLAG_NONE, [0, 4])
    E.GlobalDefWriter_WriteGroup(gw, G_REGIONS, n["regions"], E.GROUP_TYPE_REGIONS, E.PARADIGM_UNKNOWN,
                                 E.GROUP_FLAG_NONE, [R_MAIN, R_SEND])
    E.GlobalDefWriter_WriteGroup(gw, G_METRIC, n["metric group"], E.GROUP_TYPE_METRIC, E.PARADIGM_UNKNOWN,
                                 E.GROUP_FLAG_NONE, [MM_CYC])
    E.GlobalDefWriter_WriteMetricMember(gw, MM_CYC, n["cycles"], n["cycles"], E.METRIC_TYPE_PAPI,
                                        E.METRIC_ACCUMULATED_START, E.TYPE_UINT64, E.BASE_DECIMAL, 0, n["#"])
    E.GlobalDefWriter_WriteMetricMember(gw, MM_TEMP, n["temperature"], n["temperature"], E.METRIC_TYPE_OTHER,
                                        E.METRIC_ABSOLUTE_POINT, E.TYPE_DOUBLE, E.BASE_DECIMAL, 0, n["C"])
    E.GlobalDefWriter_WriteMetricClass(gw, M_CLASS, [MM_CYC, MM_TEMP], E.METRIC_SYNCHRONOUS_STRICT,
                                       E.RECORDER_KIND_CPU)
    E.GlobalDefWriter_WriteMetricInstance(gw, M_INST, M_CLASS, 5, E.SCOPE_LOCATION, 0)
    E.GlobalDefWriter_WriteMetricClassRecorder(gw, M_CLASS, 0)
    E.GlobalDefWriter_WriteComm(gw, C_WORLD, n["MPI_COMM_WORLD"], G_WORLD, UNDEF32, E.COMM_FLAG_NONE)
    E.GlobalDefWriter_WriteComm(gw, C_SUB, n["SUB_COMM"], G_SUB, C_WORLD, E.COMM_FLAG_NONE)
    E.GlobalDefWriter_WriteComm(gw, C_SELF, n["MPI_COMM_SELF"], G_SELF, UNDEF32, E.COMM_FLAG_NONE)
    E.GlobalDefWriter_WriteInterComm(gw, C_INTER, n["INTER_COMM"], G_A, G_B, C_WORLD, E.COMM_FLAG_NONE)
    E.GlobalDefWriter_WriteParameter(gw, PARAM_I, n["iter"], E.PARAMETER_TYPE_INT64)
    E.GlobalDefWriter_WriteParameter(gw, PARAM_S, n["label"], E.PARAMETER_TYPE_STRING)
    E.GlobalDefWriter_WriteParameter(gw, PARAM_U, n["count"], E.PARAMETER_TYPE_UINT64)
    E.GlobalDefWriter_WriteCallpathParameter(gw, 1, PARAM_I, E.TYPE_INT64, attr_value(int64=3))
    E.GlobalDefWriter_WriteRmaWin(gw, WIN, n["win"], C_WORLD, E.RMA_WIN_FLAG_NONE)
    E.GlobalDefWriter_WriteCartDimension(gw, CD_X, n["x"], 2, E.CART_PERIODIC_TRUE)
    E.GlobalDefWriter_WriteCartDimension(gw, CD_Y, n["y"], 2, E.CART_PERIODIC_FALSE)
    E.GlobalDefWriter_WriteCartTopology(gw, CT, n["grid"], C_WORLD, [CD_X, CD_Y])
    for r in range(RANKS):
        E.GlobalDefWriter_WriteCartCoordinate(gw, CT, r, [r // 2, r % 2])
    E.GlobalDefWriter_WriteSourceCodeLocation(gw, SCL, n["src.c"], 42)
    E.GlobalDefWriter_WriteCallingContext(gw, CC_MAIN, R_MAIN, SCL, UNDEF32)
    E.GlobalDefWriter_WriteCallingContext(gw, CC_SEND, R_SEND, SCL, CC_MAIN)
    E.GlobalDefWriter_WriteCallingContextProperty(gw, CC_SEND, n["prop"], E.TYPE_UINT64, attr_value(uint64=9))
    E.GlobalDefWriter_WriteInterruptGenerator(gw, IG, n["interrupts"], E.INTERRUPT_GENERATOR_MODE_COUNT,
                                              E.BASE_DECIMAL, 0, 100000)
    E.GlobalDefWriter_WriteIoRegularFile(gw, F_FILE, n["file.txt"], 1)
    E.GlobalDefWriter_WriteIoDirectory(gw, F_DIR, n["/tmp"], 1)
    E.GlobalDefWriter_WriteIoFileProperty(gw, F_FILE, n["prop"], E.TYPE_UINT64, attr_value(uint64=4096))
    E.GlobalDefWriter_WriteIoHandle(gw, H_STDOUT, n["stdout"], UNDEF32, IOP_POSIX, E.IO_HANDLE_FLAG_PRE_CREATED,
                                    UNDEF32, UNDEF32)
    E.GlobalDefWriter_WriteIoHandle(gw, H_FILE, n["file.txt"], F_FILE, IOP_POSIX, E.IO_HANDLE_FLAG_NONE,
                                    UNDEF32, UNDEF32)
    E.GlobalDefWriter_WriteIoPreCreatedHandleState(gw, H_STDOUT, E.IO_ACCESS_MODE_WRITE_ONLY,
                                                   E.IO_STATUS_FLAG_NONE)
    E.Archive_CloseGlobalDefWriter(ar, gw)
    E.Archive_Close(ar)


if __name__ == "__main__":
    main()
