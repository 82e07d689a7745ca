// Package topology models the machines a computation runs on. Package
// cluster is the hierarchy of racks, hosts and workers a BSP job is
// placed on, and a network model that turns the bytes sent between two
// workers into time by their distance. Package fattree models fat-tree
// fabrics: their nodes, switches, ports and links, destination-based
// routing (D-mod-k) and the loads a traffic pattern puts on every link.
// Tori, job placement and readers for real network data, which the design
// plans, do not exist yet.
package topology
