/*
 * gen_otf writes OTF v1 test traces with the reference OTF library (Debian's
 * libopen-trace-format-dev), for the otf package's tests:
 *
 *	gen_otf <prefix> all|vt compressed|plain short|long
 *
 * "all" uses every record type the OTF_Writer API offers (definitions,
 * events, snapshots, summaries, markers; key-value lists; a counter on a
 * process-group stream); "vt" writes what VampirTrace 5.13 writes: a time
 * range (DTRG), process-group attributes, counter assignments and
 * per-node counters on process-group streams switched to thousands of
 * times, key-value lists before sends.
 *
 * Processes 1-4, streams 1 (processes 1, 2 and process group 0x10) and 2
 * (processes 3, 4 and process group 0x11). The messages are listed by
 * otfprint, which the test uses as the oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf.h>

#define WORLD 0x3b9aca00u
#define SUBCOMM 0x3b9aca03u
#define NODE_A 0x10u
#define NODE_B 0x11u

static void check(int ok, const char* what) {
	if (!ok) {
		fprintf(stderr, "gen_otf: %s failed\n", what);
		exit(1);
	}
}

/* kv is a key-value list holding every OTF_Type (keys 1-12). */
static OTF_KeyValueList* kv(void) {
	OTF_KeyValueList* l = OTF_KeyValueList_new();
	uint8_t bytes[40];
	int i;
	for (i = 0; i < 40; i++) {
		bytes[i] = (uint8_t)(i * 7);
	}
	OTF_KeyValueList_appendChar(l, 1, 'x');
	OTF_KeyValueList_appendInt8(l, 2, -5);
	OTF_KeyValueList_appendUint8(l, 3, 200);
	OTF_KeyValueList_appendInt16(l, 4, -300);
	OTF_KeyValueList_appendUint16(l, 5, 60000);
	OTF_KeyValueList_appendInt32(l, 6, -70000);
	OTF_KeyValueList_appendUint32(l, 7, 4000000000u);
	OTF_KeyValueList_appendInt64(l, 8, -5000000000ll);
	OTF_KeyValueList_appendUint64(l, 9, 18000000000000000000ull);
	OTF_KeyValueList_appendFloat(l, 10, 1.5f);
	OTF_KeyValueList_appendDouble(l, 11, -2.25);
	OTF_KeyValueList_appendByteArray(l, 12, bytes, 40);
	return l;
}

/* kvSmall is a key-value list like VampirTrace's before a send. */
static OTF_KeyValueList* kvSmall(uint64_t v) {
	OTF_KeyValueList* l = OTF_KeyValueList_new();
	OTF_KeyValueList_appendUint64(l, 1, v);
	return l;
}

static void defsCommon(OTF_Writer* w, const char* creator, int vt) {
	uint32_t world[4] = {2, 1, 3, 4};
	uint32_t nodeA[2] = {1, 2}, nodeB[2] = {3, 4};
	uint32_t sub[2] = {2, 3};
	check(OTF_Writer_writeOtfVersion(w, 0), "version");
	check(OTF_Writer_writeDefCreator(w, 0, creator), "creator");
	check(OTF_Writer_writeDefTimerResolution(w, 0, 2500000), "timer resolution");
	check(OTF_Writer_writeDefTimeRange(w, 0, 100, 6000, NULL), "time range");
	check(OTF_Writer_writeDefProcess(w, 0, 1, "Process 0", 0), "process");
	check(OTF_Writer_writeDefProcess(w, 0, 2, "Process 1", 0), "process");
	check(OTF_Writer_writeDefProcess(w, 0, 3, "Process 2", 0), "process");
	check(OTF_Writer_writeDefProcess(w, 0, 4, "Process 3", 0), "process");
	check(OTF_Writer_writeDefProcessGroup(w, 0, NODE_A, "node-a", 2, nodeA), "group");
	check(OTF_Writer_writeDefProcessGroup(w, 0, NODE_B, "node-b", 2, nodeB), "group");
	check(OTF_Writer_writeDefProcessGroup(w, 0, WORLD, "MPI_COMM_WORLD", 4, world), "group");
	check(OTF_Writer_writeDefProcessGroup(w, 0, SUBCOMM, "MPI Communicator 3", 2, sub), "group");
	if (vt) {
		/* VampirTrace: an "All" group beside the node groups. */
		check(OTF_Writer_writeDefProcessGroup(w, 0, 0x3b9aca10u, "All", 4, world), "group");
	}
	{
		OTF_ATTR_TYPE node[1] = {OTF_ATTR_hasGroupCounters};
		OTF_ATTR_TYPE comm[1] = {OTF_ATTR_IsCommunicator};
		check(OTF_Writer_writeDefAttributeList(w, 0, 1, 1, node), "attribute list");
		check(OTF_Writer_writeDefAttributeList(w, 0, 2, 1, comm), "attribute list");
		check(OTF_Writer_writeDefProcessOrGroupAttributes(w, 0, NODE_A, 1), "group attributes");
		check(OTF_Writer_writeDefProcessOrGroupAttributes(w, 0, NODE_B, 1), "group attributes");
		check(OTF_Writer_writeDefProcessOrGroupAttributes(w, 0, WORLD, 2), "group attributes");
	}
	check(OTF_Writer_writeDefSclFile(w, 0, 1, "main.c"), "scl file");
	check(OTF_Writer_writeDefScl(w, 0, 1, 1, 42), "scl");
	check(OTF_Writer_writeDefScl(w, 0, 2, 1, 43), "scl");
	check(OTF_Writer_writeDefFunctionGroup(w, 0, 1, "Application"), "function group");
	check(OTF_Writer_writeDefFunctionGroup(w, 0, 2, "MPI"), "function group");
	check(OTF_Writer_writeDefFunction(w, 0, 1, "main", 1, 1), "function");
	check(OTF_Writer_writeDefFunction(w, 0, 2, "MPI_Send", 2, 0), "function");
	check(OTF_Writer_writeDefFunction(w, 0, 3, "MPI_Recv", 2, 0), "function");
	check(OTF_Writer_writeDefCollectiveOperation(w, 0, 1, "MPI_Barrier", OTF_COLLECTIVE_TYPE_BARRIER), "collop");
	check(OTF_Writer_writeDefCollectiveOperation(w, 0, 2, "MPI_Bcast", OTF_COLLECTIVE_TYPE_ONE2ALL), "collop");
	check(OTF_Writer_writeDefCounterGroup(w, 0, 1, "PAPI"), "counter group");
	check(OTF_Writer_writeDefCounterGroup(w, 0, 2, "power"), "counter group");
	check(OTF_Writer_writeDefCounter(w, 0, 1, "PAPI_TOT_INS", OTF_COUNTER_TYPE_ACC | OTF_COUNTER_SCOPE_START, 1, "#"), "counter");
	check(OTF_Writer_writeDefCounter(w, 0, 5, "localhost_power", 129, 2, "W"), "counter");
	{
		uint32_t groups[2] = {NODE_A, NODE_B};
		check(OTF_Writer_writeDefCounterAssignments(w, 0, 5, 2, groups, NULL), "counter assignments");
	}
	check(OTF_Writer_writeDefKeyValue(w, 0, 1, OTF_UINT64, "TUD::p2p-received-time", ""), "key value");
	check(OTF_Writer_writeDefinitionComment(w, 0, "Trace Times:"), "comment");
}

/* allDefs adds the definitions only the "all" trace has. */
static void allDefs(OTF_Writer* w) {
	uint32_t subst[2] = {1, 2};
	static const char* names[] = {"char", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float", "double", "bytes"};
	int k;
	for (k = 2; k <= 12; k++) {
		check(OTF_Writer_writeDefKeyValue(w, 0, k, (OTF_Type)(k - 1), names[k - 1], "a \"quoted\" description"), "key value");
	}
	check(OTF_Writer_writeDefinitionCommentKV(w, 0, "with a key-value list", kv()), "comment kv");
	check(OTF_Writer_writeDefFileGroup(w, 0, 1, "MPI I/O"), "file group");
	check(OTF_Writer_writeDefFile(w, 0, 1, "/tmp/out.dat", 1), "file");
	check(OTF_Writer_writeDefProcessSubstitutes(w, 0, 1, 2, subst, NULL), "process substitutes");
	check(OTF_Writer_writeDefAuxSamplePoint(w, 0, 3000, OTF_AUX_SAMPLE_POINT_SNAPSHOT, NULL), "aux sample point");
	check(OTF_Writer_writeDefAuxSamplePoint(w, 0, 3000, OTF_AUX_SAMPLE_POINT_SUMMARY, NULL), "aux sample point");
	check(OTF_WStream_writeUniqueId(OTF_Writer_getStream(w, 0)), "unique id");
	check(OTF_Writer_writeDefFunctionKV(w, 0, 4, "with kv", 1, 0, kv()), "function kv");
	/* A local definition, in stream 1's definition file. */
	check(OTF_Writer_writeDefinitionComment(w, 1, "stream 1's own definitions"), "local comment");
	check(OTF_Writer_writeDefMarker(w, 0, 1, "a hint", OTF_MARKER_TYPE_HINT), "def marker");
	check(OTF_Writer_writeDefMarker(w, 0, 2, "an error", OTF_MARKER_TYPE_ERROR), "def marker");
}

/* message writes a send at t (inside MPI_Send t..t+2) and its receive at
 * r (inside MPI_Recv r-2..r). */
static void message(OTF_Writer* w, uint64_t t, uint64_t r, uint32_t src, uint32_t dst, uint32_t comm, uint32_t tag, uint32_t len, int kvs) {
	check(OTF_Writer_writeEnter(w, t, 2, src, 0), "enter");
	if (kvs == 1) {
		check(OTF_Writer_writeSendMsgKV(w, t, src, dst, comm, tag, len, 2, kv()), "send kv");
	} else if (kvs == 2) {
		check(OTF_Writer_writeSendMsgKV(w, t, src, dst, comm, tag, len, 0, kvSmall(r)), "send kv");
	} else {
		check(OTF_Writer_writeSendMsg(w, t, src, dst, comm, tag, len, 0), "send");
	}
	check(OTF_Writer_writeLeave(w, t + 2, 2, src, 0), "leave");
	check(OTF_Writer_writeEnter(w, r - 2, 3, dst, 1), "enter");
	check(OTF_Writer_writeRecvMsg(w, r, dst, src, comm, tag, len, kvs == 1 ? 1 : 0), "recv");
	check(OTF_Writer_writeLeave(w, r, 0, dst, 0), "leave");
}

static void allEvents(OTF_Writer* w) {
	uint32_t p;
	int i;
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeBeginProcess(w, 100, p), "begin process");
		check(OTF_Writer_writeEnterKV(w, 100, 1, p, 1, p == 1 ? kv() : NULL), "enter");
	}
	check(OTF_Writer_writeNoOpKV(w, 150, 1, kv()), "noop");
	check(OTF_Writer_writeEventComment(w, 160, 1, "an event comment"), "comment");
	check(OTF_Writer_writeEventCommentKV(w, 160, 3, "a comment with \"quotes\"", kv()), "comment");
	for (i = 0; i < 10; i++) {
		message(w, 1000 + 10 * i, 2000 + 10 * i, 1, 4, WORLD, 1, 1000, i == 0 ? 1 : 0);
	}
	for (i = 0; i < 5; i++) {
		message(w, 3000 + 20 * i, 3500 + 20 * i, 2, 3, WORLD, 2 + i, 16 * i, 0);
	}
	message(w, 4000, 4100, 3, 2, SUBCOMM, 0x7fffffff, 4000000000u, 0);
	message(w, 4200, 4200 + 2, 4, 1, WORLD, 0, 0, 2);
	/* Stream time never goes back: one kind of record at a time. */
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeCounter(w, 4300, p, 1, 1000 * p), "counter");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeCounterKV(w, 4301, p, 1, 2000 * p, kv()), "counter kv");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeCollectiveOperation(w, 4400, p, 1, WORLD, 1, 0, 0, 5, 0), "collop");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeBeginCollectiveOperation(w, 4500, p, 2, 77, WORLD, 1, 64, 64, 1), "begin collop");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeEndCollectiveOperationKV(w, 4510, p, 77, kv()), "end collop");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeFileOperation(w, 4600, 1, p, 9, OTF_FILEOP_WRITE, 4096, 3, 1), "file op");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeBeginFileOperation(w, 4700, p, 88, 0), "begin file op");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeEndFileOperation(w, 4710, p, 1, 88, 9, OTF_FILEOP_READ, 512, 2), "end file op");
	}
	/* Counters on the node groups' streams. */
	check(OTF_Writer_writeCounter(w, 4800, NODE_A, 5, 123), "group counter");
	check(OTF_Writer_writeCounterKV(w, 4801, NODE_B, 5, 456, kv()), "group counter");
	check(OTF_Writer_writeRMAPut(w, 4900, 1, 1, 3, WORLD, 5, 128, 1), "rma put");
	check(OTF_Writer_writeRMAPutRemoteEnd(w, 4901, 1, 1, 3, WORLD, 5, 128, 0), "rma put re");
	check(OTF_Writer_writeRMAGet(w, 4902, 2, 3, 2, WORLD, 6, 256, 0), "rma get");
	check(OTF_Writer_writeRMAEndKV(w, 4903, 2, 3, WORLD, 6, 0, kv()), "rma end");
	check(OTF_Writer_writeEventComment(w, 5700, 1, "#a comment that looks like a keyword"), "comment");
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeLeave(w, 6000, 1, p, 0), "leave");
		check(OTF_Writer_writeEndProcessKV(w, 6000, p, p == 4 ? kv() : NULL), "end process");
	}
}

static void allSnapshots(OTF_Writer* w) {
	uint32_t p;
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeSnapshotComment(w, 3000, p, "snapshot"), "snapshot comment");
		check(OTF_Writer_writeEnterSnapshot(w, 3000, 100, 1, p, 1), "enter snapshot");
		check(OTF_Writer_writeEnterSnapshotKV(w, 3000, 100, 1, p, 0, kv()), "enter snapshot kv");
		check(OTF_Writer_writeSendSnapshot(w, 3000, 2990, p, 1 + p % 4, WORLD, 3, 64, 2), "send snapshot");
		check(OTF_Writer_writeOpenFileSnapshot(w, 3000, 2000, 1, p, 9, 1), "open file snapshot");
		check(OTF_Writer_writeBeginCollopSnapshot(w, 3000, 2995, p, 2, 77, WORLD, 1, 64, 64, 1), "collop snapshot");
		check(OTF_Writer_writeBeginFileOpSnapshot(w, 3000, 2996, p, 88, 0), "file op snapshot");
		check(OTF_Writer_writeCollopCountSnapshot(w, 3000, p, WORLD, 3, NULL), "collop count snapshot");
		check(OTF_Writer_writeCounterSnapshot(w, 3000, 2900, p, 1, 999, NULL), "counter snapshot");
	}
}

static void allSummaries(OTF_Writer* w) {
	uint32_t p;
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeSummaryComment(w, 6000, p, "summary"), "summary comment");
		check(OTF_Writer_writeFunctionSummary(w, 6000, 1, p, 1, 5000, 5900), "function summary");
		check(OTF_Writer_writeFunctionGroupSummaryKV(w, 6000, 2, p, 16, 32, 32, kv()), "function group summary");
		check(OTF_Writer_writeMessageSummary(w, 6000, p, 1 + p % 4, WORLD, 1, 10, 10, 10000, 10000), "message summary");
		check(OTF_Writer_writeCollopSummary(w, 6000, p, WORLD, 1, 2, 2, 128, 128), "collop summary");
		check(OTF_Writer_writeFileOperationSummary(w, 6000, 1, p, 1, 1, 2, 3, 4, 5, 6), "file op summary");
		check(OTF_Writer_writeFileGroupOperationSummary(w, 6000, 1, p, 1, 1, 2, 3, 4, 5, 6), "file group summary");
	}
}

static void allMarkers(OTF_Writer* w) {
	check(OTF_Writer_writeMarker(w, 2500, 1, 1, "look here"), "marker");
	check(OTF_Writer_writeMarkerKV(w, 2600, 3, 2, "and \"here\"", kv()), "marker kv");
}

/* vtEvents: ranks 1-3 send to rank 0 (process 2 in MPI_COMM_WORLD order
 * 2,1,3,4 is process 1), each send preceded by a key-value list, with the
 * node groups' power counters written between the events. */
static void vtEvents(OTF_Writer* w) {
	uint32_t p;
	int i;
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeBeginProcess(w, 100, p), "begin process");
		check(OTF_Writer_writeEnter(w, 100, 1, p, 0), "enter");
	}
	for (i = 0; i < 300; i++) {
		uint64_t t = 200 + 10 * (uint64_t)i;
		uint32_t src = 3 + i % 2;
		message(w, t, t + 5, src, 2, WORLD, (uint32_t)i, 6000, 2);
		check(OTF_Writer_writeCounter(w, t + 6, NODE_A, 5, 100 + i), "group counter");
		check(OTF_Writer_writeCounter(w, t + 6, NODE_B, 5, 200 + i), "group counter");
		check(OTF_Writer_writeCounter(w, t + 7, src, 1, (uint64_t)i * 1000), "counter");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeBeginCollectiveOperation(w, 5000, p, 1, 1, WORLD, 0, 0, 0, 0), "begin collop");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeEndCollectiveOperation(w, 5001, p, 1), "end collop");
	}
	for (p = 1; p <= 4; p++) {
		check(OTF_Writer_writeLeave(w, 6000, 1, p, 0), "leave");
		check(OTF_Writer_writeEndProcess(w, 6000, p), "end process");
	}
}

int main(int argc, char** argv) {
	OTF_FileManager* m;
	OTF_Writer* w;
	int vt;
	if (argc != 5) {
		fprintf(stderr, "usage: gen_otf <prefix> all|vt compressed|plain short|long\n");
		return 2;
	}
	vt = strcmp(argv[2], "vt") == 0;
	m = OTF_FileManager_open(100);
	check(m != NULL, "file manager");
	w = OTF_Writer_open(argv[1], 2, m);
	check(w != NULL, "writer");
	check(OTF_Writer_setCompression(w, strcmp(argv[3], "compressed") == 0 ? OTF_FILECOMPRESSION_COMPRESSED : OTF_FILECOMPRESSION_UNCOMPRESSED), "compression");
	OTF_Writer_setFormat(w, strcmp(argv[4], "long") == 0 ? OTF_WSTREAM_FORMAT_LONG : OTF_WSTREAM_FORMAT_SHORT);
	check(OTF_Writer_assignProcess(w, 1, 1), "assign");
	check(OTF_Writer_assignProcess(w, 2, 1), "assign");
	check(OTF_Writer_assignProcess(w, NODE_A, 1), "assign");
	check(OTF_Writer_assignProcess(w, 3, 2), "assign");
	check(OTF_Writer_assignProcess(w, 4, 2), "assign");
	check(OTF_Writer_assignProcess(w, NODE_B, 2), "assign");
	defsCommon(w, vt ? "VampirTrace 5.13rc3" : "gen_otf", vt);
	if (vt) {
		vtEvents(w);
	} else {
		allDefs(w);
		allEvents(w);
		allSnapshots(w);
		allSummaries(w);
		allMarkers(w);
	}
	check(OTF_Writer_close(w), "close");
	OTF_FileManager_close(m);
	return 0;
}
