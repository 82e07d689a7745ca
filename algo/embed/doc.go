// Package embed places the points of a metric in the plane (or any low
// dimension) with the standard, topology-blind methods that paper 004
// (Cheng et al. 2018, section IV-A) compares its Hilbert ring against:
//
//   - ClassicalMDS: Torgerson–Gower classical multidimensional scaling of a
//     full distance matrix (double centring, top eigenpairs from gonum's
//     mat.EigenSym);
//   - SMACOF: weighted stress majorisation, where +Inf distances get
//     weight 0, for the paper's "3-hop" and "neighbours-only" matrices;
//   - RadViz: the anchor-weighted barycentre of eq. 6 on raw coordinates;
//   - Stress and ScaledStress: normalised stress of an embedding;
//   - DistanceMatrix: the full, cut-off and neighbours-only matrices from
//     any integer distance function.
//
// The package knows nothing about tori, networks or displays: its input is
// a distance matrix or a table of raw coordinates, its output is a table of
// coordinates. Every randomised step takes a seed and is deterministic for
// it; nothing here keeps state between calls.
package embed
