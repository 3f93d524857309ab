package geom

import (
	"fmt"
	"testing"
)

// BenchmarkTriangulatePolygon cuts polygons of 450,000 corners, convex and
// star-shaped (every other corner at half the radius), into triangles.
func BenchmarkTriangulatePolygon(b *testing.B) {
	for _, shape := range []string{"convex", "star"} {
		b.Run(fmt.Sprintf("%s/corners=450000", shape), func(b *testing.B) {
			positions, corners := polygonMesh(450_000, func(i int, _ float64) float64 {
				if shape == "star" && i%2 == 1 {
					return 0.5
				}
				return 1
			}, Vec3{0.1, 1, 0.3})
			tris := make([][3]int32, 0, len(corners))
			for b.Loop() {
				tris = TriangulatePolygon(positions, corners, tris[:0])
			}
		})
	}
}
