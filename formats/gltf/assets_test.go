package gltf

import (
	"math"
	"os"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/levelset/sharedtest"
)

// The expected values below were derived by hand from the numbers in each file
// (JSON and decoded buffers); the comments give the derivation.

func TestAnimatedTriangle(t *testing.T) {
	// Positions (0,0,0), (1,0,0), (0,1,0); node 0 rotation keys at t = 0, 0.25,
	// 0.5, 0.75, 1: (0,0,0,1), (0,0,√½,√½) [90° about z], (0,0,1,0) [180°],
	// (0,0,√½,-√½) [270°], (0,0,0,1), LINEAR.
	for _, name := range []string{"AnimatedTriangle.gltf", "AnimatedTriangle.glb"} {
		s := openAsset(t, name)
		if c := s.Clips(); len(c) != 1 || c[0].Start != 0 || c[0].End != 1 {
			t.Fatalf("%s: clips %v, want one from 0 to 1 s", name, c)
		}
		r2 := math.Sqrt(0.5)
		c, sn := math.Cos(math.Pi/8), math.Sin(math.Pi/8)
		for _, tc := range []struct {
			t      float64
			v1, v2 geom.Vec3
		}{
			// t = 0.25 is a key: a quarter turn, x -> y, y -> -x.
			{0.25, geom.Vec3{0, 1, 0}, geom.Vec3{-1, 0, 0}},
			// A quarter of the way from 0 to 90°: slerp gives 22.5° exactly; a
			// normalized lerp would give 21.6°.
			{0.0625, geom.Vec3{c, sn, 0}, geom.Vec3{-sn, c, 0}},
			// Halfway between 180° and 270°: 225°.
			{0.625, geom.Vec3{-r2, -r2, 0}, geom.Vec3{r2, -r2, 0}},
			// After the last key: clamped to the identity.
			{7, geom.Vec3{1, 0, 0}, geom.Vec3{0, 1, 0}},
		} {
			m := mesh(t, s, 0, tc.t)
			near(t, name+" vertex 0", m.Positions[0], geom.Vec3{}, 1e-12)
			near(t, name+" vertex 1", m.Positions[1], tc.v1, 1e-6)
			near(t, name+" vertex 2", m.Positions[2], tc.v2, 1e-6)
		}
	}
}

func TestCubicSplineAsset(t *testing.T) {
	// Node "Mover", translation CUBICSPLINE, keys t = 0 and 1, values x 0 and 1, all
	// tangents zero: x(s) = -2s³ + 3s², so x(0.5) = 0.5 and x(0.25) = 0.15625
	// (0.25 if it were linear). The file has no mesh, so Decode refuses it and the
	// node is evaluated through the unexported decode.
	for _, name := range []string{"animation_interpolation_cubic.gltf", "animation_interpolation_cubic.glb"} {
		path := sharedtest.Asset(t, name)
		_, err := Open(path)
		wantFormatError(t, err, "", "no triangle meshes")
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s, err := decode(f, nil, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ t, x float64 }{{0.5, 0.5}, {0.25, 0.15625}, {0, 0}, {1, 1}, {-1, 0}, {3, 1}} {
			w := s.nodeWorld(0, tc.t, 0)
			near(t, name+" translation", geom.Vec3{w[12], w[13], w[14]}, geom.Vec3{tc.x, 0, 0}, 1e-12)
		}
	}
}

func TestSimpleMorph(t *testing.T) {
	// Base (0,0,0), (1,0,0), (0.5,0.5,0); target 0 moves vertex 2 by (-1,1,0),
	// target 1 by (1,1,0). mesh.weights (0.5, 0.5); weight keys at t = 0..4:
	// (0,0), (0,1), (1,1), (1,0), (0,0).
	for _, name := range []string{"SimpleMorph.gltf", "SimpleMorph.glb"} {
		s := openAsset(t, name)
		for _, tc := range []struct {
			clip int
			t    float64
			v2   geom.Vec3
		}{
			{-1, 0, geom.Vec3{0.5, 1.5, 0}},     // rest: mesh weights 0.5, 0.5
			{0, 0.25, geom.Vec3{0.75, 0.75, 0}}, // w = (0, 0.25)
			{0, 2, geom.Vec3{0.5, 2.5, 0}},      // w = (1, 1)
			{0, 2.5, geom.Vec3{0, 2, 0}},        // w = (1, 0.5)
			{0, 4, geom.Vec3{0.5, 0.5, 0}},      // w = (0, 0)
		} {
			m := mesh(t, s, tc.clip, tc.t)
			near(t, name+" vertex 1", m.Positions[1], geom.Vec3{1, 0, 0}, 1e-12)
			near(t, name+" vertex 2", m.Positions[2], tc.v2, 1e-12)
		}
	}
}

func TestSimpleSkin(t *testing.T) {
	// Vertices (±0.5, y, 0) for y = 0, 0.5, 1, 1.5, 2; joints 0 (node 1,
	// translation (0,1,0)) and 1 (node 2, its child); both inverse bind matrices
	// are the translation (0,-1,0); weights (1,0) at y=0, (0.5,0.5) at y=1, (0,1)
	// at y=2. At the key t = 1 s node 2 turns 90° about z, so
	// M0 = T(0,1,0) T(0,-1,0) = I and M1 = T(0,1,0) R90 T(0,-1,0), R90 (x,y) = (-y,x):
	//   v0 (-0.5,0,0): M0 -> (-0.5,0,0)
	//   v8 (-0.5,2,0): T(0,-1,0) -> (-0.5,1) -> R90 -> (-1,-0.5) -> (-1,0.5,0)
	//   v9 (0.5,2,0):  (0.5,1) -> (-1,0.5) -> (-1,1.5,0)
	//   v4 (-0.5,1,0): M0 -> (-0.5,1,0), M1 -> (0,0.5,0); half each: (-0.25,0.75,0)
	var meshes []*geom.Mesh
	for _, name := range []string{"SimpleSkin.gltf", "SimpleSkin.glb"} {
		s := openAsset(t, name)
		m := mesh(t, s, 0, 1)
		near(t, name+" v0", m.Positions[0], geom.Vec3{-0.5, 0, 0}, 1e-6)
		near(t, name+" v8", m.Positions[8], geom.Vec3{-1, 0.5, 0}, 1e-6)
		near(t, name+" v9", m.Positions[9], geom.Vec3{-1, 1.5, 0}, 1e-6)
		near(t, name+" v4", m.Positions[4], geom.Vec3{-0.25, 0.75, 0}, 1e-6)
		// At t = 0 node 2 has no rotation: M0 = M1 = I, the stored positions.
		m = mesh(t, s, 0, 0)
		near(t, name+" v0 at rest", m.Positions[0], geom.Vec3{-0.5, 0, 0}, 1e-12)
		near(t, name+" v9 at rest", m.Positions[9], geom.Vec3{0.5, 2, 0}, 1e-12)
		meshes = append(meshes, mesh(t, s, 0, 2.75))
	}
	sameMesh(t, meshes[0], meshes[1])
}

func TestBoxAnimated(t *testing.T) {
	// Scene roots [3, 0]: node 3 draws the outer box (224 vertices) untransformed;
	// node 0 -> 1 -> 2 draws the inner box (96 vertices, output 224..319). Node 0
	// translation keys t = 0, 1.25, 2.5, 3.708: y = 0, 2.52, 2.52, 0. Node 2
	// rotation keys t = 1.25, 2.5: (-0,-0,-0,-1) [identity] and (1,0,0,~0) [180°
	// about x]. Inner vertex 0 is (-0.33204, -0.5, 0.33204), outer vertex 0
	// (-0.346, -0.497, 0.349).
	s := openAsset(t, "BoxAnimated.glb")
	if s.VertexCount() != 320 {
		t.Fatalf("%d vertices, want 224 + 96", s.VertexCount())
	}
	const a = 0.332040011882782
	outer := geom.Vec3{-0.34599998593330383, -0.4970000088214874, 0.3490000069141388}
	for _, tc := range []struct {
		t     float64
		inner geom.Vec3
	}{
		// Before the rotation starts: identity, translation 1.26 (halfway to 2.52).
		{0.625, geom.Vec3{-a, -0.5 + 1.26, a}},
		// Halfway through the rotation: the keys have a negative dot product, so
		// the shortest path is taken, 90° about x: (x,y,z) -> (x,-z,y); y += 2.52.
		{1.875, geom.Vec3{-a, -a + 2.52, -0.5}},
		// At 2.5 s: 180° about x, (x,y,z) -> (x,-y,-z); y += 2.52.
		{2.5, geom.Vec3{-a, 0.5 + 2.52, -a}},
	} {
		m := mesh(t, s, 0, tc.t)
		near(t, "outer vertex 0", m.Positions[0], outer, 1e-12)
		near(t, "inner vertex 0", m.Positions[224], tc.inner, 1e-6)
	}
}

func TestRiggedSimple(t *testing.T) {
	// Z_UP (columns (1,0,0), (0,0,-1), (0,1,0)) -> Armature (90° about z) ->
	// Bone (joint 0, translation (0, -1.36e-7, -4.18033)) -> Bone.001 (joint 1,
	// rest translation tb = (0, 0.0279775, 4.187077), rotation ≈ identity);
	// the mesh node "Cylinder" is a skinned sibling whose own transform is ignored.
	//
	// Joint 0 is not animated and world(Bone) x IBM0 reduces to B(x,y,z) =
	// (x, z, -y): vertex 0, (0, -0.9999996, -4.575077) with weight 1 on joint 0,
	// is at (0, -4.575077, 0.9999996) at every t (the -4.4e-8 in x is cos 90° in
	// float32).
	//
	// Joint 1 at key 24 (t = 1.041667 s) has rotation (0.29534, 0.00028, -0.00009,
	// -0.95539); relative to its rest rotation that is -34.35583° about its local x
	// axis, which Z_UP x Armature turns into the world z axis, about the pivot
	// Z_UP x Armature x (Bone translation + tb) = (0.0279773, 0.0067472, 0). Vertex
	// 66, (0.087806, 0.441431, 4.575077), weight 1 on joint 1, starts at B(p) =
	// (0.087806, 4.575077, -0.441431) and turns to (2.655418, 3.744363, -0.441431);
	// vertex 67, (-0.441431, 0.087805, 4.575077), to (2.218507, 4.043028, -0.087805).
	s := openAsset(t, "RiggedSimple.glb")
	if s.VertexCount() != 160 || s.TriangleCount() != 188 {
		t.Fatalf("%d vertices, %d triangles; want 160, 188", s.VertexCount(), s.TriangleCount())
	}
	v0 := geom.Vec3{0, -4.575077056884766, 0.9999995827674866}
	for _, time := range []float64{0.0416666, 1.0416669845581055, 2} {
		near(t, "vertex 0", mesh(t, s, 0, time).Positions[0], v0, 1e-6)
	}
	m := mesh(t, s, 0, 1.0416669845581055)
	near(t, "vertex 66", m.Positions[66], geom.Vec3{2.655418, 3.744363, -0.441431}, 1e-5)
	near(t, "vertex 67", m.Positions[67], geom.Vec3{2.218507, 4.043028, -0.087805}, 1e-5)
	// At the first key (the bind pose) vertex 66 is B(p).
	m = mesh(t, s, 0, 0.04166661947965622)
	near(t, "vertex 66 at bind", m.Positions[66], geom.Vec3{0.087806, 4.575077, -0.441431}, 1e-5)
}

// TestGLBMatchesGLTF checks that each repacked .glb gives exactly the mesh of its
// .gltf, at several times.
func TestGLBMatchesGLTF(t *testing.T) {
	for _, base := range []string{"AnimatedTriangle", "SimpleMorph", "SimpleSkin"} {
		a, b := openAsset(t, base+".gltf"), openAsset(t, base+".glb")
		for _, time := range []float64{-1, 0, 0.3, 1.7, 3.1, 10} {
			sameMesh(t, mesh(t, a, 0, time), mesh(t, b, 0, time))
		}
		sameMesh(t, mesh(t, a, -1, 0), mesh(t, b, -1, 0))
	}
}

// sameMesh fails unless a and b are identical.
func sameMesh(t *testing.T, a, b *geom.Mesh) {
	t.Helper()
	if err := geom.SameTopology(a, b); err != nil {
		t.Fatal(err)
	}
	for i := range a.Positions {
		if a.Positions[i] != b.Positions[i] {
			t.Fatalf("vertex %d: %v and %v", i, a.Positions[i], b.Positions[i])
		}
	}
}
