// Package levelset is the sparse voxel grid of the tools, laid out as OpenVDB's leaves
// and tiles so that .vdb files map onto it directly, with the algorithms that need
// nothing but the grid: accessors, trilinear sampling, dilation, and GridShape, the
// solid of a level set. Turning meshes into level sets is levelset/voxelize; vectors,
// boxes and meshes are levelset/geom.
package levelset
