#!/usr/bin/python3
"""Write an OTF2 archive with Debian's libotf2 (python3-otf2) for the otf2
package's tests: usage gen_otf2.py OUTDIR [MESSAGES_PER_PAIR] [RANKS].

Small mode (RANKS = 4, the default) exercises what a reader must survive:
Isend/Irecv with completions out of posting order, a sub-communicator whose
ranks differ from the locations, a group record of more than 255 bytes,
more than 1 MiB of events on location 0 (several chunks), records the
reader does not know (metrics, OpenMP, parameters, attribute lists,
collectives) and clock offsets in the local definitions.

Big mode (RANKS = 16 and a large MESSAGES_PER_PAIR) writes a ring-like
benchmark trace: every rank sends to 3 partners.
"""
import sys

import otf2
import _otf2
from otf2.enums import Paradigm, GroupType, RegionRole, Type

TPS = 2095197216  # a clock that does not divide 1e9
T0 = 7397466976977800


def main():
    out = sys.argv[1]
    per_pair = int(sys.argv[2]) if len(sys.argv) > 2 else 30000
    ranks = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    small = ranks == 4
    with otf2.writer.open(out, timer_resolution=TPS) as w:
        d = w.definitions
        root = d.system_tree_node("cluster", class_name="machine")
        nodes = [d.system_tree_node("node%d" % (i // 2), class_name="node", parent=root)
                 for i in range(0, ranks, 2)]
        lgs = [d.location_group("MPI Rank %d" % r, system_tree_parent=nodes[r // 2])
               for r in range(ranks)]
        locs = [d.location("Master thread", group=lgs[r]) for r in range(ranks)]
        world_locs = d.group("world locations", group_type=GroupType.COMM_LOCATIONS,
                             paradigm=Paradigm.MPI, members=locs)
        world_grp = d.group("world", group_type=GroupType.COMM_GROUP,
                            paradigm=Paradigm.MPI, members=list(range(ranks)))
        world = d.comm("MPI_COMM_WORLD", group=world_grp)
        f_main = d.region("main", region_role=RegionRole.FUNCTION)
        f_send = d.region("MPI_Send", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
        f_recv = d.region("MPI_Recv", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
        ew = [w.event_writer_from_location(l) for l in locs]
        now = [T0 + 1000 * r for r in range(ranks)]

        def tick(r, n=37):
            now[r] += n
            return now[r]

        for r in range(ranks):
            ew[r].enter(tick(r), f_main)

        if not small:
            # Every rank sends per_pair messages to the next 3 ranks; the
            # receiver's clock is advanced past the sender's.
            for k in range(per_pair):
                for r in range(ranks):
                    for j in (1, 2, 3):
                        dst = (r + j) % ranks
                        ew[r].mpi_send(tick(r, 11), dst, world, j, 64 + k % 7)
                for r in range(ranks):
                    for j in (1, 2, 3):
                        src = (r - j) % ranks
                        now[r] = max(now[r], now[src]) + 5
                        ew[r].mpi_recv(tick(r, 13), src, world, j, 64 + k % 7)
            for r in range(ranks):
                ew[r].leave(tick(r), f_main)
            return

        # A sub-communicator: world ranks 3 and 1, so sub rank 0 = location 3.
        sub_grp = d.group("sub", group_type=GroupType.COMM_GROUP,
                          paradigm=Paradigm.MPI, members=[3, 1])
        sub = d.comm("SUB_COMM", group=sub_grp, parent=world)
        # A group record longer than 255 bytes (300 regions, ids >= 256
        # take 2 bytes each), unknown to the reader.
        many = [d.region("r%d" % i) for i in range(300)]
        d.group("many regions", group_type=GroupType.REGIONS, members=many)
        attr = d.attribute("size", "a value", Type.UINT64)
        metric = d.metric("cycles", unit="#")
        param = d.parameter("iteration", parameter_type=otf2.ParameterType.INT64)
        f_coll = d.region("MPI_Barrier", region_role=RegionRole.BARRIER, paradigm=Paradigm.MPI)

        # Records the reader skips, with attribute lists.
        for r in range(ranks):
            ew[r].metric(tick(r), metric, 12345)
            ew[r].parameter_int(tick(r), param, r)
            ew[r].omp_fork(tick(r), 4, attributes={attr: 7})

        # 0 -> 1 blocking, many messages: > 1 MiB of events on location 0.
        for k in range(per_pair):
            ew[0].enter(tick(0), f_send, attributes={attr: k})
            ew[0].mpi_send(tick(0), 1, world, 5, 100 + k % 50)
            ew[0].leave(tick(0), f_send)
            now[1] = max(now[1], now[0])
            ew[1].enter(tick(1), f_recv)
            ew[1].mpi_recv(tick(1), 0, world, 5, 100 + k % 50)
            ew[1].leave(tick(1), f_recv)

        # Irecv on 2 posted for tags 1 then 2, completed 2 first: the tag 1
        # message from 3 was posted first.
        ew[2].mpi_irecv_request(tick(2), 71)
        ew[2].mpi_irecv_request(tick(2), 72)
        now[3] = max(now[3], now[2])
        ew[3].mpi_isend(tick(3), 2, world, 1, 1000, 9)
        ew[3].mpi_isend(tick(3), 2, world, 2, 2000, 10)
        ew[3].mpi_isend_complete(tick(3), 9)
        ew[3].mpi_isend_complete(tick(3), 10)
        now[2] = max(now[2], now[3])
        ew[2].mpi_irecv(tick(2), 3, world, 2, 2000, 72)
        ew[2].mpi_irecv(tick(2), 3, world, 1, 1000, 71)
        # Two irecvs with the same tag completed out of order: the first
        # posted matches the first send.
        ew[2].mpi_irecv_request(tick(2), 81)
        ew[2].mpi_irecv_request(tick(2), 82)
        now[3] = max(now[3], now[2])
        ew[3].mpi_isend(tick(3), 2, world, 3, 111, 11)
        ew[3].mpi_isend(tick(3), 2, world, 3, 222, 12)
        now[2] = max(now[2], now[3])
        ew[2].mpi_irecv(tick(2), 3, world, 3, 222, 82)
        ew[2].mpi_irecv(tick(2), 3, world, 3, 111, 81)

        # On the sub-communicator: location 1 (sub rank 1) sends to sub
        # rank 0 = location 3; location 3 receives from sub rank 1.
        now[1] = max(now[1], now[3])
        ew[1].mpi_send(tick(1), 0, sub, 44, 4444)
        now[3] = max(now[3], now[1])
        ew[3].mpi_recv(tick(3), 1, sub, 44, 4444)

        # A collective: a region and collective records, never messages.
        for r in range(ranks):
            ew[r].enter(tick(r), f_coll)
            ew[r].mpi_collective_begin(tick(r))
            ew[r].mpi_collective_end(tick(r), otf2.CollectiveOp.BARRIER, world,
                                     0xFFFFFFFF, 0, 0)  # root: none
            ew[r].leave(tick(r), f_coll)
        for r in range(ranks):
            ew[r].leave(tick(r), f_main)

        # Clock offsets in the local definitions of locations 1 and 2.
        for r, offs in ((1, [(T0, -300), (T0 + 50000000, 900)]), (2, [(T0 + 10, 4321)])):
            dw = _otf2.Archive_GetDefWriter(w._handle, locs[r]._ref)
            for t, o in offs:
                _otf2.DefWriter_WriteClockOffset(dw, t, o, 0.0)


if __name__ == "__main__":
    main()
