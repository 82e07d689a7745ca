// Package hilbert linearises an n-dimensional box or torus onto a ring,
// as paper 004 (Cheng et al., 2018) puts torus nodes on a circle in
// Hilbert order, and measures how well a ring order keeps locality.
//
// The curve is the compact Hilbert index of Hamilton and Rau-Chaplin
// ("Compact Hilbert indices", Information Processing Letters, 2008):
// CompactIndex and CompactCoord map between a point of a box of side
// 2^bits[j] along dimension j and its index in 0 .. 2^Σbits − 1, without
// spending bits on padding. It orders the box's points as the full
// Hilbert curve of the enclosing cube does. On a cube it is a Hilbert
// curve (unit steps, nested sub-cubes); in 2-D it is Skilling's transpose
// curve ("Programming the Hilbert curve", 2004) up to a symmetry of the
// square, while in 3-D and above the two are different Hilbert curves
// whose sub-cubes turn differently.
//
// Order gives the ring: node ids put the first coordinate fastest,
// id = x₀ + K₀·(x₁ + K₁·(x₂ + …)) (Boxfish's numbering), extent-1
// dimensions are dropped, and other extents are padded to powers of two
// (see Order for the method and the jumps it leaves). RowMajorFirst and
// RowMajorLast are the 2014 tool's sequential baselines.
//
// The metrics (Measure) work on any Space: a node count, a hop distance
// and neighbour lists. With n′ dimensions of extent > 1:
//
//   - step(k) = mean over i of Dist(v_i, v_(i+k) mod N); L = step(1);
//     W = mean of step(1..2n′);
//   - jumps = consecutive ranks (not the closing step) not one hop apart;
//   - stretch = mean circular rank distance of the neighbour pairs;
//   - intra(m) = share of neighbour pairs inside one of m blocks of
//     consecutive ranks; bundles(m) = block pairs joined by at least one
//     neighbour pair (BlockPairs lists them with their counts).
//
// Blocks follow paper 004 when m divides N; otherwise the first N mod m
// blocks get one more rank (BlockSizes).
//
// What the Hilbert order buys, measured on tori (test TestLocalityTable):
// nodes near on the ring are near in the torus — L = 1 and W drops from
// 2.776 to 2.361 on 4^5, from 2.992 to 2.175 on 8×8×8. It does not buy
// link stretch: the mean ring distance of torus neighbours ties with
// row-major (76.7 on 4^5, 42.56 on 4×4×4×4×2) or loses (32.17 against
// 26.58 on 8×8×8), because the wrap-around links and the far sub-cube
// faces stay far apart on any ring.
//
// What the package refuses to know: it imports no topology and no
// display package. A torus comes in as a Space (a *torus.Torus is one)
// or as a list of extents; an order goes out as a plain []int.
package hilbert
