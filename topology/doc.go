// Package topology models the machines a computation runs on. Package
// cluster is the hierarchy of racks, hosts and workers a BSP job is
// placed on, and a network model that turns the bytes sent between two
// workers into time by their distance. Package fattree models fat-tree
// fabrics: their nodes, switches, ports and links, destination-based
// routing (D-mod-k, SSSP, job-aware, tables), job placement, the loads a
// traffic pattern puts on every link, and metrics and queries over them.
// Package infiniband reads what real InfiniBand fabrics report
// (ibnetdiscover's topology, port counters, routing-table dumps, TreeScope
// data directories) and writes ibsim net files; fattree.Infer turns a
// discovered topology into a fabric model. Package torus models
// n-dimensional tori: channels, dimension-order routing, communication
// patterns and task mappings, load measures; its subpackage torus/boxfish
// reads and writes Boxfish's counter tables and reads Blue Gene/Q raw
// counters. Package slurm reads the job
// logs that say which nodes a job ran on and when. Nothing here imports
// display or algo: package sdk joins the models to the views.
package topology
