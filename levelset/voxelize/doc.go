// Package voxelize turns triangle meshes into signed distance: Mesh writes a narrow-band
// level set with the surface's velocity and normal (the collider volumes of the voxelize
// tool), MeshShape answers exact distances anywhere. Both find closest triangles with a
// BVH and tell inside from outside with angle-weighted pseudonormals on closed meshes
// and fast winding numbers on open ones.
package voxelize
