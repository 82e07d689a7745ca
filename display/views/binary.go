package views

import (
	"encoding/base64"
	"encoding/binary"
)

// leInts packs v little-endian in size bytes each (1, 2 or 4), base64:
// the binary arrays of the specs the runtime reads (ring graph, drawing).
func leInts(v []int32, size int) string {
	b := make([]byte, size*len(v))
	le := binary.LittleEndian
	for i, x := range v {
		switch size {
		case 1:
			b[i] = byte(x)
		case 2:
			le.PutUint16(b[2*i:], uint16(x))
		default:
			le.PutUint32(b[4*i:], uint32(x))
		}
	}
	return base64.StdEncoding.EncodeToString(b)
}
