package slurm

import (
	"fmt"
	"strings"
)

// HCAHost returns the host name in an InfiniBand NodeDescription, the
// text an HCA reports and ibnetdiscover prints in quotes: its first word.
// "node042 HCA-1" and "node042 mlx5_0" both give "node042". Surrounding
// double quotes are removed; a description without words gives "".
//
// The first word is a host name only when the node's description was set
// from its host name, as the rdma-ndd service and OFED's defaults do; an
// HCA that was never told its host name describes itself by model (for
// example "MT25408 ConnectX Mellanox Technologies"), and MapNodes will then
// find no job's nodes there and say so.
func HCAHost(nodeDescription string) string {
	d := strings.TrimSpace(nodeDescription)
	if len(d) >= 2 && d[0] == '"' && d[len(d)-1] == '"' {
		d = d[1 : len(d)-1]
	}
	f := strings.Fields(d)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// MapNodes maps the node names of each job to node indices: known maps a
// host name (from HCAHost, say) to the index of its node in the caller's
// network. The result has one slice per job, in the order of jobs, holding
// the indices of the job's nodes in the order of Job.Nodes.
//
// A name that known lacks is left out of its job's slice and reported:
// one warning per job that has such names, naming the job, its line, how
// many of its nodes are unknown and which (as a hostlist, shortened when
// long). Names are
// matched exactly (Slurm's short host names; a fully qualified name in
// known will not match).
func MapNodes(jobs []Job, known map[string]int) ([][]int, []Warning) {
	out := make([][]int, len(jobs))
	var warns []Warning
	for i := range jobs {
		j := &jobs[i]
		idx := make([]int, 0, len(j.Nodes))
		var unknown []string
		for _, n := range j.Nodes {
			if v, ok := known[n]; ok {
				idx = append(idx, v)
			} else {
				unknown = append(unknown, n)
			}
		}
		out[i] = idx
		if len(unknown) > 0 {
			warns = append(warns, Warning{Line: j.Line, JobID: j.ID, Msg: fmt.Sprintf("%d of its %d nodes are not in the network and are left out: %s", len(unknown), len(j.Nodes), quote(CompressHostlist(unknown)))})
		}
	}
	return out, warns
}
