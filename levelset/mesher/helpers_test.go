package mesher

import (
	"math"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// testTransform has a voxel size and origin that are not round, so that the tests
// see the transform at work.
var testTransform = levelset.Transform{VoxelSize: 0.05, Origin: geom.Vec3{0.3, -1.2, 0.7}}

// levelSetOf returns a narrow-band level set of shape s over the world box bounds,
// as a level set from OpenVDB or the voxelizer has it: phi at the voxels within
// halfWidth voxels of the surface, active; outside it the background halfWidth h,
// inactive; inside, -halfWidth h, inactive, in leaf-sized tiles where a whole leaf
// is inside and in the leaves' inactive voxels elsewhere.
func levelSetOf(tr levelset.Transform, s geom.Shape, bounds geom.Box, halfWidth float64) *levelset.FloatGrid {
	w := halfWidth * tr.VoxelSize
	g := levelset.NewGrid(tr, float32(w))
	lo := tr.WorldToIndex(bounds.Min)
	hi := tr.WorldToIndex(bounds.Max)
	var first, last levelset.Coord
	for a := range 3 {
		first[a] = int32(math.Floor(lo[a]-halfWidth-1)) &^ (levelset.LeafDim - 1)
		last[a] = int32(math.Ceil(hi[a] + halfWidth + 1))
	}
	var phis [levelset.LeafVoxels]float64
	for x := first[0]; x <= last[0]; x += levelset.LeafDim {
		for y := first[1]; y <= last[1]; y += levelset.LeafDim {
			for z := first[2]; z <= last[2]; z += levelset.LeafDim {
				o := levelset.Coord{x, y, z}
				in, out := true, true
				for n := range phis {
					phis[n], _ = s.Distance(tr.IndexToWorld(levelset.LeafCoord(o, n)))
					in = in && phis[n] <= -w
					out = out && phis[n] >= w
				}
				switch {
				case out:
				case in:
					g.AddTile(levelset.Tile[float32]{Origin: o, Log2: levelset.LeafLog2, Value: -float32(w)})
				default:
					leaf := g.TouchLeaf(o)
					for n, phi := range phis {
						active := math.Abs(phi) < w
						leaf.Values[n] = float32(math.Copysign(min(math.Abs(phi), w), phi))
						leaf.Active.Set(n, active)
					}
				}
			}
		}
	}
	return g
}

// torus is the solid torus around the y axis through Center: the points within
// Tube of the circle of radius Ring.
type torus struct {
	Center     geom.Vec3
	Ring, Tube float64
}

func (t torus) Distance(p geom.Vec3) (float64, geom.Vec3) {
	d := p.Sub(t.Center)
	q := math.Hypot(math.Hypot(d[0], d[2])-t.Ring, d[1])
	return q - t.Tube, geom.Vec3{}
}

// union is the union of two solids: the minimum of their distances (exact outside,
// a lower bound of the depth inside, which is enough for a level set's sign and
// its surface).
type union struct{ a, b geom.Shape }

func (u union) Distance(p geom.Vec3) (float64, geom.Vec3) {
	da, _ := u.a.Distance(p)
	db, _ := u.b.Distance(p)
	return min(da, db), geom.Vec3{}
}

// surface is what checkSurface measures of a mesh.
type surface struct {
	vertices, triangles int
	euler               int
	area, volume        float64
	shortestEdge        float64
}

// checkSurface fails the test unless m is a closed, consistently oriented,
// manifold surface of positive volume with finite, distinct vertices, and returns
// its measures.
func checkSurface(t *testing.T, m *geom.Mesh) surface {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("invalid mesh: %v", err)
	}
	topo := geom.NewTopology(m.Triangles)
	if !topo.Closed {
		t.Fatalf("not closed: %d boundary edges, %d non-manifold edges", topo.BoundaryEdges, topo.NonManifoldEdges)
	}
	if bad := singularVertices(m, topo); bad > 0 {
		t.Errorf("%d vertices whose triangles do not form one fan", bad)
	}
	seen := make(map[geom.Vec3]int, len(m.Positions))
	for i, p := range m.Positions {
		if j, ok := seen[p]; ok {
			t.Fatalf("vertices %d and %d are both at %v", j, i, p)
		}
		seen[p] = i
	}
	s := surface{vertices: len(m.Positions), triangles: len(m.Triangles), shortestEdge: math.Inf(1)}
	for _, tri := range m.Triangles {
		a, b, c := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		s.area += b.Sub(a).Cross(c.Sub(a)).Norm() / 2
		s.shortestEdge = min(s.shortestEdge, math.Sqrt(min(geom.Dist2(a, b), geom.Dist2(b, c), geom.Dist2(c, a))))
	}
	s.volume = m.SignedVolume()
	if !(s.volume > 0) {
		t.Errorf("signed volume %g: want > 0 (outward triangles)", s.volume)
	}
	if !(s.shortestEdge > 0) {
		t.Errorf("shortest edge %g: want > 0", s.shortestEdge)
	}
	// Closed: every edge has two triangles, so E = 3F/2.
	s.euler = len(m.Positions) - 3*len(m.Triangles)/2 + len(m.Triangles)
	return s
}

// singularVertices counts the vertices whose triangles are not one fan: walking
// from triangle to triangle around the vertex through the edges from it does not
// visit all of them (two cones meeting at a point, say).
func singularVertices(m *geom.Mesh, topo *geom.Topology) int {
	incident := make([]int32, len(m.Positions))
	first := make([]int32, len(m.Positions))
	for i := range first {
		first[i] = -1
	}
	for ti, tri := range m.Triangles {
		for _, v := range tri {
			incident[v]++
			if first[v] < 0 {
				first[v] = int32(ti)
			}
		}
	}
	bad := 0
	for v, start := range first {
		if start < 0 {
			continue
		}
		steps, tri := int32(0), start
		for {
			slot := 0
			for m.Triangles[tri][slot] != int32(v) {
				slot++
			}
			tri = topo.Across[tri][slot] // across the edge from v to the next vertex
			steps++
			if tri == start || tri < 0 || steps > incident[v] {
				break
			}
		}
		if tri != start || steps != incident[v] {
			bad++
		}
	}
	return bad
}

// relErr returns (got - want) / want.
func relErr(got, want float64) float64 { return (got - want) / want }
