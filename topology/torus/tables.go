package torus

import (
	"github.com/apache/arrow/go/v15/arrow"
)

// Column names of the traffic tables.
const (
	ColRegion  = "region"  // int32: code region (−2 is Boxfish's whole run)
	ColPhase   = "phase"   // int32: occurrence of the region, from 0
	ColChannel = "channel" // int32: channel id (Channel)
	ColNode    = "node"    // int32: node id
	ColSrc     = "src"     // int32: sending node id
	ColDst     = "dst"     // int32: receiving node id
	ColPackets = "packets" // int64
)

// Schema metadata keys the tables carry.
const (
	MetaKind    = "superstep.torus.kind"    // "channels", "pairs" or "nodes"
	MetaShape   = "superstep.torus.shape"   // extents, such as "8x8x8"
	MetaNames   = "superstep.torus.names"   // dimension names, comma-separated
	MetaMesh    = "superstep.torus.mesh"    // mesh dimension names, comma-separated
	MetaK2      = "superstep.torus.k2"      // Extent2Channels: "1" or "2"
	MetaCounter = "superstep.torus.counter" // the column of the main count, "packets" unless told
)

// ChannelFields are the leading columns of a channel-counter table: region,
// phase, channel, packets. Extra counter columns (int64 or float64) follow.
func ChannelFields() []arrow.Field {
	return []arrow.Field{
		{Name: ColRegion, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColPhase, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColChannel, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColPackets, Type: arrow.PrimitiveTypes.Int64},
	}
}

// PairFields are the columns of a node-pair traffic table: region, phase,
// src, dst, packets.
func PairFields() []arrow.Field {
	return []arrow.Field{
		{Name: ColRegion, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColPhase, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColSrc, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColDst, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColPackets, Type: arrow.PrimitiveTypes.Int64},
	}
}

// NodeFields are the leading columns of a node-counter table: region,
// phase, node. Counter columns (int64 or float64) follow.
func NodeFields() []arrow.Field {
	return []arrow.Field{
		{Name: ColRegion, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColPhase, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColNode, Type: arrow.PrimitiveTypes.Int32},
	}
}
