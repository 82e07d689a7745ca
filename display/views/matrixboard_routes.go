package views

import (
	"encoding/base64"
	"fmt"
	"slices"
)

// Routes on a matrix board: the board ships a destination-based
// forwarding table (InfiniBand's linear forwarding tables, generically),
// and the browser follows it when the user clicks headers and cells:
// click for a source, shift-click for a destination. RouteItems is the
// same computation in Go, for tests and for cells.

// MatrixRoutesPayload is the most bytes of forwarding table a live board
// ships: one byte per (forwarding header, endpoint). Larger tables are
// left out; the board then says so when clicked, and routes are drawn
// from Go (RouteItems, or sdk.FatTreeRoute).
const MatrixRoutesPayload = 4 << 20

// MatrixRoutes is a destination-based forwarding table over a board's
// headers and items: a route to endpoint e leaves header Headers[k] by
// item Next[k][e], which enters the next header, until it leaves the
// header e hangs from by the item to e.
type MatrixRoutes struct {
	// Endpoints are where routes start and end (a fat-tree's nodes).
	Endpoints []MatrixEndpoint
	// Headers are the headers that forward (a fat-tree's switches).
	Headers []string
	// Next[k][e] is the index in MatrixBoardData.Items of the item by
	// which a route to endpoint e leaves Headers[k] (an item whose From is
	// Headers[k]), or -1 where the header has no route to e.
	Next [][]int32
}

// MatrixEndpoint is one end of routes.
type MatrixEndpoint struct {
	ID     string // unique among the endpoints
	Header string // the header it hangs from (a node's L1 switch)
	In     string // the item from the endpoint into Header; "" if none
}

// MatrixSelection names headers and items of a board: the sources or the
// destinations of routes.
type MatrixSelection struct {
	Headers []string
	Items   []string
}

// matrixRoutes is a board's validated forwarding table, by index.
type matrixRoutes struct {
	ends   []int   // endpoint → header index
	in     []int   // endpoint → item index of its In, -1 if none
	rowOf  []int   // header index → row of next, -1 if it does not forward
	next   [][]int // row → endpoint → item index, -1 for none
	endIdx map[string]int
	jobEnd [][]int // job → its endpoints
}

// newMatrixRoutes checks d.Routes against the board's headers and items,
// and the jobs' endpoints against it.
func (m *matrixModel) newMatrixRoutes() (*matrixRoutes, error) {
	r := m.d.Routes
	if r == nil {
		for _, j := range m.d.Jobs {
			if len(j.Endpoints) > 0 {
				return nil, fmt.Errorf("job %q names endpoints, but the board has no routes", j.ID)
			}
		}
		return nil, nil
	}
	mr := &matrixRoutes{endIdx: map[string]int{}, rowOf: make([]int, len(m.headers))}
	for i := range mr.rowOf {
		mr.rowOf[i] = -1
	}
	for e, ep := range r.Endpoints {
		if _, dup := mr.endIdx[ep.ID]; dup || ep.ID == "" {
			return nil, fmt.Errorf("routes: endpoint %d: ID %q is empty or appears twice", e, ep.ID)
		}
		mr.endIdx[ep.ID] = e
		h, ok := m.hdrIndex[ep.Header]
		if !ok {
			return nil, fmt.Errorf("routes: endpoint %q hangs from header %q, which the board does not draw", ep.ID, ep.Header)
		}
		in := -1
		if ep.In != "" {
			i, ok := m.itemIndex[ep.In]
			if !ok || m.d.Items[i].To != ep.Header {
				return nil, fmt.Errorf("routes: endpoint %q: In %q is not an item into %q", ep.ID, ep.In, ep.Header)
			}
			in = i
		}
		mr.ends = append(mr.ends, h)
		mr.in = append(mr.in, in)
	}
	if len(r.Next) != len(r.Headers) {
		return nil, fmt.Errorf("routes: %d rows of Next for %d headers", len(r.Next), len(r.Headers))
	}
	for k, id := range r.Headers {
		h, ok := m.hdrIndex[id]
		if !ok {
			return nil, fmt.Errorf("routes: header %q forwards, but the board does not draw it", id)
		}
		if mr.rowOf[h] >= 0 {
			return nil, fmt.Errorf("routes: header %q appears twice", id)
		}
		if len(r.Next[k]) != len(r.Endpoints) {
			return nil, fmt.Errorf("routes: header %q has %d entries for %d endpoints", id, len(r.Next[k]), len(r.Endpoints))
		}
		row := make([]int, len(r.Endpoints))
		for e, it := range r.Next[k] {
			row[e] = int(it)
			if it < 0 {
				row[e] = -1
				continue
			}
			if int(it) >= len(m.d.Items) || m.d.Items[it].From != id {
				return nil, fmt.Errorf("routes: header %q sends endpoint %q by item %d, which does not leave it", id, r.Endpoints[e].ID, it)
			}
		}
		mr.rowOf[h] = len(mr.next)
		mr.next = append(mr.next, row)
	}
	for _, j := range m.d.Jobs {
		var es []int
		for _, id := range j.Endpoints {
			e, ok := mr.endIdx[id]
			if !ok {
				return nil, fmt.Errorf("job %q: endpoint %q is not among the routes' endpoints", j.ID, id)
			}
			es = append(es, e)
		}
		mr.jobEnd = append(mr.jobEnd, es)
	}
	return mr, nil
}

// nextItem is the item by which a route to endpoint d leaves header h,
// or -1.
func (mr *matrixRoutes) nextItem(h, d int) int {
	if row := mr.rowOf[h]; row >= 0 {
		return mr.next[row][d]
	}
	return -1
}

// routeMarks is the computation the runtime repeats (matrixboard.js,
// routeMarks): the items and headers on the routes between sources and
// destinations, for every pair of distinct allowed endpoints. An element
// (header or item) is on a route if the route visits it; it is marked if
// a source element lies on the route at or before it and a destination
// element at or after it (with no sources, every route starts a source;
// with no destinations, every route ends at one). allowed nil means every
// endpoint.
func (mr *matrixRoutes) routeMarks(m *matrixModel, srcH, srcI, dstH, dstI []bool, allowed []bool) (items, headers []bool) {
	nh, ni := len(m.headers), len(m.d.Items)
	items, headers = make([]bool, ni), make([]bool, nh)
	noSrc := !slices.Contains(srcH, true) && !slices.Contains(srcI, true)
	noDst := !slices.Contains(dstH, true) && !slices.Contains(dstI, true)
	if noSrc && noDst {
		return items, headers
	}
	ne := len(mr.ends)
	ok := func(e int) bool { return allowed == nil || allowed[e] }
	// destAfter[h]: the route from h to the current endpoint passes a
	// destination element at or after h (0 unknown, 1 no, 2 yes).
	destAfter := make([]int8, nh)
	seen := make([]int, nh) // header → the key (endpoint and source flag) of its last walk
	after := func(h, d int) bool {
		// Follow the chain to an answer, then give it to every header on it.
		var chain []int
		x := h
		var res bool
		for steps := 0; ; steps++ {
			if destAfter[x] != 0 {
				res = destAfter[x] == 2
				break
			}
			if steps > nh {
				res = false
				break
			}
			chain = append(chain, x)
			if dstH[x] {
				res = true
				break
			}
			it := mr.nextItem(x, d)
			if x == mr.ends[d] {
				// The route ends here (by the item to the endpoint, if any).
				res = it >= 0 && dstI[it] || noDst
				break
			}
			if it < 0 {
				res = false
				break
			}
			if dstI[it] {
				res = true
				break
			}
			to, ok := m.hdrIndex[m.d.Items[it].To]
			if !ok {
				res = false
				break
			}
			x = to
		}
		// Every header of the chain has the answer of its end.
		for _, c := range chain {
			if res {
				destAfter[c] = 2
			} else {
				destAfter[c] = 1
			}
		}
		return res
	}
	// itemAfter is destAfter for the item it leaving a header towards d.
	itemAfter := func(it, d int) bool {
		if dstI[it] {
			return true
		}
		if e := mr.ends[d]; m.hdrIndex[m.d.Items[it].From] == e && mr.nextItem(e, d) == it {
			return noDst // the item to d itself
		}
		to, ok := m.hdrIndex[m.d.Items[it].To]
		return ok && after(to, d)
	}
	walk := func(a, d int, passed bool) {
		x := a
		for steps := 0; steps <= nh; steps++ {
			passed = passed || srcH[x]
			if passed && after(x, d) {
				headers[x] = true
			}
			it := mr.nextItem(x, d)
			if it >= 0 {
				passed = passed || srcI[it]
				if passed && itemAfter(it, d) {
					items[it] = true
				}
			}
			if x == mr.ends[d] || it < 0 {
				return
			}
			to, ok := m.hdrIndex[m.d.Items[it].To]
			if !ok {
				return
			}
			x = to
		}
	}
	for d := 0; d < ne; d++ {
		if !ok(d) {
			continue
		}
		clear(destAfter)
		for s := 0; s < ne; s++ {
			if s == d || !ok(s) {
				continue
			}
			a := mr.ends[s]
			flag := noSrc
			if in := mr.in[s]; in >= 0 {
				flag = flag || srcI[in]
				if flag && (dstI[in] || after(a, d)) {
					items[in] = true
				}
			}
			// One walk per header and source flag for each endpoint.
			key := 2*d + 1
			if flag {
				key = 2*d + 2
			}
			if seen[a] == key || (seen[a] == 2*d+2 && !flag) {
				// A walk with passed=true marks a superset of one with false.
				continue
			}
			seen[a] = key
			walk(a, d, flag)
		}
	}
	return items, headers
}

// RouteItems are the items and headers the live board highlights when
// the user clicks the headers and items of src (sources) and shift-clicks
// those of dst (destinations), with the jobs of the job table named by
// jobs selected: the elements on the routes, between every two distinct
// endpoints (of the selected jobs, if any), that pass a source and then a
// destination (no sources: every route; no destinations: to the routes'
// ends). A header alone as source gives the routes leaving it; a cell
// alone, the routes through it to what it reaches (d(ℓ) in TreeScope's
// terms); with a job selected, only those to the job's endpoints
// (d(ℓ) ∩ N(J)). Nothing is selected when both are empty.
func (v *MatrixBoardView) RouteItems(src, dst MatrixSelection, jobs []string) (items, headers []string, err error) {
	m, err := newMatrixModel(v.Data)
	if err != nil {
		return nil, nil, err
	}
	if m.routes == nil {
		return nil, nil, fmt.Errorf("views: matrix board: no routes (MatrixBoardData.Routes)")
	}
	sel := func(s MatrixSelection, what string) (hs, is []bool, err error) {
		hs, is = make([]bool, len(m.headers)), make([]bool, len(m.d.Items))
		for _, id := range s.Headers {
			h, ok := m.hdrIndex[id]
			if !ok {
				return nil, nil, fmt.Errorf("views: matrix board: %s header %q is not on the board", what, id)
			}
			hs[h] = true
		}
		for _, id := range s.Items {
			i, ok := m.itemIndex[id]
			if !ok {
				return nil, nil, fmt.Errorf("views: matrix board: %s item %q is not on the board", what, id)
			}
			is[i] = true
		}
		return hs, is, nil
	}
	sh, si, err := sel(src, "source")
	if err != nil {
		return nil, nil, err
	}
	dh, di, err := sel(dst, "destination")
	if err != nil {
		return nil, nil, err
	}
	var allowed []bool
	if len(jobs) > 0 {
		allowed = make([]bool, len(m.routes.ends))
		for _, id := range jobs {
			k := slices.IndexFunc(m.d.Jobs, func(j MatrixJob) bool { return j.ID == id })
			if k < 0 {
				return nil, nil, fmt.Errorf("views: matrix board: no job %q", id)
			}
			for _, e := range m.routes.jobEnd[k] {
				allowed[e] = true
			}
		}
	}
	mi, mh := m.routes.routeMarks(m, sh, si, dh, di, allowed)
	for i, on := range mi {
		if on {
			items = append(items, m.d.Items[i].ID)
		}
	}
	for h, on := range mh {
		if on {
			headers = append(headers, m.headers[h])
		}
	}
	return items, headers, nil
}

// matrixRoutesSpec is the forwarding table as the runtime gets it: Next
// as one byte per (row, endpoint), the position of the item among those
// leaving the row's header in item order (255: none).
type matrixRoutesSpec struct {
	EndID  []string `json:"endId"`
	EndHdr []int    `json:"endHdr"`
	EndIn  []int    `json:"endIn"`
	Rows   []int    `json:"rows"` // header index of each row
	Next   string   `json:"next"` // base64
}

// routesSpec encodes the table, or says why it is left out.
func (m *matrixModel) routesSpec() (*matrixRoutesSpec, string) {
	mr := m.routes
	if mr == nil {
		return nil, m.d.RoutesNote
	}
	ne := len(mr.ends)
	if size := len(mr.next) * ne; size > MatrixRoutesPayload {
		return nil, fmt.Sprintf("The forwarding table (%d headers × %d endpoints) is larger than the %d MiB a live board ships; routes come from Go.", len(mr.next), ne, MatrixRoutesPayload>>20)
	}
	pos := make([]int, len(m.d.Items))
	for _, list := range m.from {
		for p, i := range list {
			pos[i] = p
		}
	}
	sp := &matrixRoutesSpec{EndID: make([]string, ne), EndHdr: mr.ends, EndIn: mr.in}
	for e, ep := range m.d.Routes.Endpoints {
		sp.EndID[e] = ep.ID
	}
	buf := make([]byte, 0, len(mr.next)*ne)
	for h, row := range mr.rowOf {
		if row < 0 {
			continue
		}
		if len(m.from[h]) > 255 {
			return nil, fmt.Sprintf("Header %s has %d items leaving it; a live board follows routes through at most 255.", m.headers[h], len(m.from[h]))
		}
		sp.Rows = append(sp.Rows, h)
		for _, it := range mr.next[row] {
			if it < 0 {
				buf = append(buf, 255)
			} else {
				buf = append(buf, byte(pos[it]))
			}
		}
	}
	sp.Next = base64.StdEncoding.EncodeToString(buf)
	return sp, ""
}
