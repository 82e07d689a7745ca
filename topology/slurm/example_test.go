package slurm_test

import (
	"fmt"
	"strings"

	"superstep/topology/slurm"
)

func ExampleExpandHostlist() {
	names, err := slurm.ExpandHostlist("n[08-10],rack[1-2]-gpu[1-2]")
	if err != nil {
		panic(err)
	}
	fmt.Println(names)
	fmt.Println(slurm.CompressHostlist(names))

	_, err = slurm.ExpandHostlist("n[5-3]")
	fmt.Println(err)
	// Output:
	// [n08 n09 n10 rack1-gpu1 rack1-gpu2 rack2-gpu1 rack2-gpu2]
	// n[08-10],rack1-gpu[1-2],rack2-gpu[1-2]
	// hostlist "n[5-3]": expected a range lo-hi with lo ≤ hi, found "5-3" (column 3)
}

func ExampleReadSacct() {
	// sacct --allusers --parsable2 --format JobID,JobName,Start,End,Elapsed,NNodes,NodeList
	const log = `JobID|JobName|Start|End|Elapsed|NNodes|NodeList
1001|lulesh|2024-03-01T10:00:00|2024-03-01T11:30:00|01:30:00|4|n[01-04]
1001.batch|batch|2024-03-01T10:00:00|2024-03-01T11:30:00|01:30:00|1|n01
1002|amg|2024-03-01T11:00:00|Unknown|00:45:10|2|n[05-06]
1003|pend|Unknown|Unknown|00:00:00|1|None assigned
`
	jobs, warnings, err := slurm.ReadSacct(strings.NewReader(log), "jobs.txt")
	if err != nil {
		panic(err)
	}
	for _, j := range jobs {
		fmt.Println(j.ID, j.Name, j.Nodes, "from", j.Start.Format("15:04"), "for", j.Elapsed, "ended:", !j.End.IsZero())
	}
	for _, w := range warnings {
		fmt.Println(w)
	}

	// The nodes of the jobs in a network whose hosts are numbered.
	hosts := map[string]int{}
	for i, desc := range []string{"n01 mlx5_0", "n02 mlx5_0", "n03 mlx5_0", "n04 mlx5_0", "n05 mlx5_0"} {
		hosts[slurm.HCAHost(desc)] = i
	}
	indices, warnings := slurm.MapNodes(jobs, hosts)
	fmt.Println(indices)
	for _, w := range warnings {
		fmt.Println(w)
	}
	// Output:
	// 1001 lulesh [n01 n02 n03 n04] from 10:00 for 1h30m0s ended: true
	// 1002 amg [n05 n06] from 11:00 for 45m10s ended: false
	// 1003 pend [] from 00:00 for 0s ended: false
	// jobs.txt:4: job 1002: no end time: the job was still running (or never ran) when sacct ran (End is "Unknown")
	// jobs.txt:5: job 1003: no start time: the job had not started when sacct ran (Start is "Unknown")
	// jobs.txt:5: job 1003: no end time: the job was still running (or never ran) when sacct ran (End is "Unknown")
	// jobs.txt:5: job 1003: no nodes (NodeList is "None assigned"): the job is kept without nodes
	// [[0 1 2 3] [4] []]
	// line 4: job 1002: 1 of its 2 nodes are not in the network and are left out: "n06"
}
