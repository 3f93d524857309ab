// Package heightfield is the ground model of Sumner, O'Brien and Hodgins, "Animating
// sand, mud, and snow" (Graphics Interface 1998): ground as a height field of
// vertical columns that objects press prints into. It is far cheaper than MPM for
// footprints, tyre tracks and trails across large areas, and is driven by the same
// colliders as the MPM solver (any collider.Collider).
//
// A step (Sim.Step) follows the paper's section "Motion of the Ground Material":
//
//  1. Collision (collide.go): a ray from each column's bottom up through its top;
//     where it meets an object, the column comes down to the object.
//  2. Contour map (contour.go): each column in contact gets its eight-way distance
//     to the nearest free column.
//  3. Displacement (displace.go): of the material pushed down, alpha moves out down
//     the contour map to the first ring of free columns; 1 - alpha is compressed.
//  4. Erosion (erode.go): material moves down slopes steeper than theta_out (theta_in
//     towards the object), sigma of the mean difference (2) a pass, until no slope
//     is steeper than theta_stop.
//  5. Spray (spray.go, carrier.go, particles.go): pieces of the object in contact
//     pick up material; off the ground they drop it (3) as particles at random
//     points (4)-(7) with the object's velocity (8), which fall and land back in
//     columns.
//
// The work is done only in the active area: windows around each object's box
// (window.go), copied out of a sparse Field whose columns are created on demand
// (field.go), so memory and time follow the objects, not the size of the ground.
// Material is accounted for exactly: the columns, what the objects carry and the
// spray in the air always add up to the start minus what was compressed.
package heightfield
