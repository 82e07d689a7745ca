// Package datasets reads graphs (edge lists, METIS, Matrix Market, GraphML,
// DOT), generates them (lattice, Erdős–Rényi, Barabási–Albert, planted
// communities) and ships small real data sets with their attribution.
package datasets
