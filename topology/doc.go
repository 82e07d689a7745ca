// Package topology models the machines a computation runs on: the cluster
// hierarchy (rack, host, worker), k-ary fat-trees and n-D tori, with
// routing, job placement, traffic from communication patterns, and readers
// for real network data.
package topology
