package particles

import (
	"fmt"
	"math"
)

// Clusters: does snow thrown at a floor break into lumps or into powder?
//
// Two particles are neighbours when their distance is below the link distance
// (|x_p - x_q| < link, computed in float64 from the float32 positions). A cluster is a
// connected component of that neighbour relation: a set of particles joined by chains
// of neighbours. A lone particle is a cluster of one. Clusters are compared by mass: the
// largest cluster is the heaviest (more particles first among equal masses). Powder is
// every cluster of fewer than powderBelow particles, and lumps are the other clusters.
//
// The partition depends only on the positions, never on the particles' order; every
// mass in ClusterStats is an exactly summed float32 total rounded once, so the whole
// result is identical for any order of the particles.

// ClusterStats summarise the clusters of one frame. Shares are fractions of Mass, and
// 0 when Mass is 0. An empty frame has all fields 0.
type ClusterStats struct {
	Particles int     // particles in the frame
	Mass      float64 // their total mass, kg
	Clusters  int     // connected clusters, lone particles included
	Lumps     int     // clusters of at least powderBelow particles

	Largest MassPortion // the heaviest cluster
	Second  MassPortion // the second heaviest; zero with fewer than two clusters
	Powder  MassPortion // all clusters of fewer than powderBelow particles together
}

// A MassPortion is some particles of a frame: how many, their mass and its share of the
// frame's mass.
type MassPortion struct {
	Particles int
	Mass      float64 // kg
	Share     float64 // Mass over the frame's mass, in [0, 1]
}

// Clusters groups the particles at positions pos (x y z per particle) with masses mass
// (kg, finite and non-negative) into clusters of link distance link (metres) and
// summarises them; clusters of fewer than powderBelow particles count as powder (0 or 1:
// none does). See ClusterLabels for the cost.
func Clusters(pos, mass []float32, link float64, powderBelow int) (ClusterStats, error) {
	if len(pos) != 3*len(mass) {
		return ClusterStats{}, fmt.Errorf("clusters: %d position values for %d masses", len(pos), len(mass))
	}
	if powderBelow < 0 {
		return ClusterStats{}, fmt.Errorf("clusters: powder threshold %d: must not be negative", powderBelow)
	}
	for i, m := range mass {
		if !(m >= 0) || math.IsInf(float64(m), 0) {
			return ClusterStats{}, fmt.Errorf("clusters: particle %d: mass %g: must be finite and not negative", i, m)
		}
	}
	labels, count, err := ClusterLabels(pos, link)
	if err != nil {
		return ClusterStats{}, err
	}
	return summarizeClusters(labels, count, mass, powderBelow), nil
}

// ClusterLabels returns each particle's cluster (see Clusters for the definition) and
// the number of clusters. Clusters are numbered 0 to count-1 in the order of their first
// particle, so particle 0 is in cluster 0. Positions must be finite. No input gives no
// labels and no clusters.
//
// The cost is linear for snow: a radix sort of the particles by grid cell (cell size
// link), then distance tests between particles in neighbouring cells only. Particles
// in one octant of a cell (closer than link/2 on every axis) are joined without tests,
// octants already in one cluster are not tested again, and of two big octants only the
// particles near the other's box are, so piles of coincident particles and links much
// longer than the particle spacing stay cheap. Memory is about 90 bytes per particle
// whatever the extent of the positions: a box of more than about 2^61 cells is an error
// rather than a grid that large.
func ClusterLabels(pos []float32, link float64) (labels []int32, count int, err error) {
	if len(pos)%3 != 0 {
		return nil, 0, fmt.Errorf("clusters: %d position values: not x y z per particle", len(pos))
	}
	if !(link > 0) || math.IsInf(link, 0) {
		return nil, 0, fmt.Errorf("clusters: link distance %g: must be finite and positive", link)
	}
	n := len(pos) / 3
	if n > math.MaxInt32 {
		return nil, 0, fmt.Errorf("clusters: %d particles: more than %d", n, math.MaxInt32)
	}
	if n == 0 {
		return nil, 0, nil
	}
	g, err := newLinkGrid(pos, link)
	if err != nil {
		return nil, 0, err
	}
	u := newUnionFind(n)
	g.join(u)
	labels, count = g.labels(u)
	return labels, count, nil
}

// summarizeClusters totals the clusters' particles and masses. Masses are summed
// exactly (exactSum), cluster by cluster, so that no total depends on the particles'
// order.
func summarizeClusters(labels []int32, count int, mass []float32, powderBelow int) ClusterStats {
	st := ClusterStats{Particles: len(labels), Clusters: count}
	if count == 0 {
		return st
	}
	// A counting sort of the particles by cluster, for one accumulator at a time.
	start := make([]int32, count+1)
	for _, l := range labels {
		start[l+1]++
	}
	for k := 1; k <= count; k++ {
		start[k] += start[k-1]
	}
	byCluster := make([]int32, len(labels))
	next := append([]int32(nil), start[:count]...)
	for i, l := range labels {
		byCluster[next[l]] = int32(i)
		next[l]++
	}

	var total, powder exactSum
	masses := make([]float64, count)
	for k := range count {
		members := byCluster[start[k]:start[k+1]]
		isPowder := len(members) < powderBelow
		var sum exactSum
		for _, i := range members {
			sum.add(mass[i])
			total.add(mass[i])
			if isPowder {
				powder.add(mass[i])
			}
		}
		masses[k] = sum.float64()
		if isPowder {
			st.Powder.Particles += len(members)
		} else {
			st.Lumps++
		}
		c := MassPortion{Particles: len(members), Mass: masses[k]}
		switch {
		case heavier(c, st.Largest):
			st.Largest, st.Second = c, st.Largest
		case heavier(c, st.Second):
			st.Second = c
		}
	}
	st.Mass = total.float64()
	st.Powder.Mass = powder.float64()
	for _, p := range []*MassPortion{&st.Largest, &st.Second, &st.Powder} {
		if st.Mass > 0 {
			p.Share = p.Mass / st.Mass
		}
	}
	return st
}

// heavier orders clusters by mass, then by particles; the zero MassPortion (no cluster)
// is lighter than any cluster.
func heavier(a, b MassPortion) bool {
	if a.Mass != b.Mass {
		return a.Mass > b.Mass
	}
	return a.Particles > b.Particles
}
