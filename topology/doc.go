// Package topology models the machines a computation runs on. Today that
// is package cluster: the hierarchy of racks, hosts and workers a BSP job
// is placed on, and a network model that turns the bytes sent between two
// workers into time by their distance. Fat-trees, tori, routing, job
// placement and readers for real network data, which the design plans,
// do not exist yet.
package topology
