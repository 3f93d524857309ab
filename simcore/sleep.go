package simcore

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Sleeping snow (Config.Sleep, issue 25): snow that has come to rest costs almost
// nothing. The paper's conclusion suggests it ("simulation level of detail techniques
// could reduce run times in areas where the snow has settled").
//
// What sleeps is a group of particles, those binned to one node block (bins.go), so
// that a whole group drops out of the scatter, the contact marking, the grid update,
// the semi-implicit solve and the gather at once. Each particle carries the time its
// group has been at rest, Particles.Quiet; it grows by dt in a step where every
// particle of its group ends the step slower than SleepSpeed and no collider moving at
// that speed comes within reach of the group, and falls to 0 otherwise (settle says
// why particle speeds, not node speeds, decide). A group whose every particle has been quiet for SleepTime
// sleeps: at the start of a step (partitionSleeping) it leaves bins.blocks for
// sleep.groups, and its particles keep their position, velocity, F_E, J_P and stress
// untouched. Since Quiet is a particle channel, a checkpoint holds the sleep state and
// a resumed run sleeps exactly as the one that never stopped.
//
// The nodes that a sleeping group's stencils reach are held still: v^{n+1} = 0 there
// (pinned), as at a sticking wall. Sleeping snow is at rest by definition, so this is
// the velocity it would give its nodes; the alternative, keeping the nodes with the
// mass and velocity they last had, would need the sleeping particles' stress to
// balance the gravity on that mass, so that it either costs the scatter that sleep
// saves or lets the boundary sag. Held nodes carry the weight of awake snow resting on
// sleeping snow (the weight goes into the nodes as into the ground), and sleeping snow
// cannot creep or sag under gravity: nothing integrates it. Its F_E and stress are as
// they were when it fell asleep, so it pushes back as before when it wakes.
//
// A sleeping group wakes (its particles' Quiet back to 0, so it takes part from the
// next step) when
//   - an awake particle moving at SleepSpeed or more has a stencil that reaches one of
//     its held nodes (settle): the first node that awake snow shares with sleeping
//     snow lies at least 1.5 cells from the awake particle when the CFL limits a step
//     to half a cell, where the cubic kernel's weight is below 2% per axis, so the one
//     step of contact before the group wakes costs that particle almost none of its
//     momentum;
//   - awake particles move into its node block: a group sleeps only while all its
//     particles have rested for SleepTime;
//   - a collider moving at SleepSpeed or more comes within reach of it (colliderStirs);
//   - the body forces change: nothing sleeps before GravityStart, while a press acts,
//     or while snow sinters (sleepAllowed).
//
// The time step counts the elastic wave speed of the sleeping groups that may take
// part in the next step (settle): those that wake, those next to awake snow, and all
// of them when sleep ends or snow moves fast, so that the step after a group wakes is
// as stable as if it had never slept. Sleeping snow far from any awake snow does not
// set the step: hard-packed snow (a footprint) that has come to rest no longer holds
// every step to its wave speed. Every decision is per group, from values that do not
// depend on the thread count, so sleep keeps results deterministic.

const (
	// defaultSleepCellsPerSecond is the default SleepSpeed in cells per second: snow
	// slower than 1 mm/s at h = 2 cm moves under a tenth of a millimetre over a frame.
	defaultSleepCellsPerSecond = 0.05
	// defaultSleepTime is the default SleepTime (s): a little longer than a frame at
	// 24 fps, longer than the period of the elastic ringing of settled snow.
	defaultSleepTime = 0.05
)

// sleepState is the sleep bookkeeping of the current step, rebuilt by every step.
type sleepState struct {
	groups    []sleepingGroup // the groups asleep in this step
	pinned    []uint64        // per grid block: bit k set when a sleeping group holds node k still
	disturbed []uint64        // per grid block: held nodes that moving awake particles reach
	moving    []nodeBox       // per awake group: the stencils of its particles that move and reach held nodes
	particles int             // the particles asleep in this step
	maxWave2  float64         // the largest squared elastic wave speed of the sleeping groups next to awake snow
}

// sleepingGroup is a sleeping group and the nodes it holds.
type sleepingGroup struct {
	particleBlock           // its particles and node block; window: grid blocks or -1
	nodeBox                 // the nodes that its particles' stencils reach
	masks         [8]uint64 // those of each window block, as bits
	maxWave2      float64   // its particles' largest squared elastic wave speed
}

// sleepSpeed returns the speed (m/s) below which a node counts as at rest.
func (c *Config) sleepSpeed() float64 {
	if c.SleepSpeed > 0 {
		return c.SleepSpeed
	}
	return defaultSleepCellsPerSecond * c.H
}

// sleepTime returns how long (s) a group must stay at rest to fall asleep.
func (c *Config) sleepTime() float64 {
	if c.SleepTime > 0 {
		return c.SleepTime
	}
	return defaultSleepTime
}

// Sleeping returns the number of particles that slept through the last step.
func (s *Sim) Sleeping() int { return s.sleep.particles }

// sleepAllowed reports whether snow may sleep in the step that starts now: sleep is
// on, and no body force is about to change, which would move snow that no neighbour
// and no collider wakes (gravity before GravityStart, the presses, sintering).
func (s *Sim) sleepAllowed() bool { return s.sleepAllowedAt(s.Time) }

// sleepAllowedAt is sleepAllowed for the step that starts at t.
func (s *Sim) sleepAllowedAt(t float64) bool {
	for _, p := range s.cfg.Presses {
		if p.active(t) {
			return false
		}
	}
	return s.P.Quiet != nil && t >= s.cfg.GravityStart && !(s.P.Sinter != nil && s.sintering(t))
}

// partitionSleeping moves the groups that sleep in this step from bins.blocks, which
// keeps the awake ones in order, to sleep.groups: those whose every particle has been
// quiet for SleepTime. binParticles calls it before it creates the grid, so that only
// awake groups' windows exist.
func (s *Sim) partitionSleeping() {
	sl := &s.sleep
	sl.groups, sl.particles = sl.groups[:0], 0
	if !s.sleepAllowed() {
		return
	}
	rested := float32(s.cfg.sleepTime())
	awake := s.bins.blocks[:0]
	for _, g := range s.bins.blocks {
		if s.groupRested(&g, rested) {
			sl.groups = append(sl.groups, sleepingGroup{particleBlock: g})
			sl.particles += int(g.end - g.start)
		} else {
			awake = append(awake, g)
		}
	}
	s.bins.blocks = awake
}

// groupRested reports whether every particle of group g has been quiet for rested.
func (s *Sim) groupRested(g *particleBlock, rested float32) bool {
	for k := g.start; k < g.end; k++ {
		if s.P.Quiet[s.bins.order[k]] < rested {
			return false
		}
	}
	return true
}

// pinSleepingNodes marks the grid nodes that the sleeping groups hold still, those of
// the grid (the awake groups' windows) that a sleeping particle's stencil reaches, and
// measures the wave speed of the sleeping groups that border awake snow (settle says
// why those alone count for the time step).
func (s *Sim) pinSleepingNodes() {
	sl := &s.sleep
	n := len(s.grid.coords)
	sl.pinned, sl.disturbed = resizeScratch(sl.pinned, n), resizeScratch(sl.disturbed, n)
	clear(sl.pinned)
	clear(sl.disturbed)
	sl.maxWave2 = 0
	if len(sl.groups) == 0 {
		return
	}
	parallel.For(s.threads, len(sl.groups), func(_, k int) { s.measureSleeper(&sl.groups[k]) })
	for k := range sl.groups {
		sg := &sl.groups[k]
		for d := range sg.window {
			c := windowBlock(sg.coord, d)
			blk, ok := s.grid.index[blockKey(c)]
			if !ok {
				sg.window[d], sg.masks[d] = -1, 0 // no awake snow there
				continue
			}
			sg.window[d], sg.masks[d] = blk, boxMask(c, sg.lo, sg.hi)
			sl.pinned[blk] |= sg.masks[d]
			sl.maxWave2 = max(sl.maxWave2, sg.maxWave2) // it borders awake snow
		}
	}
}

// measureSleeper sets a sleeping group's box of nodes and its largest squared wave
// speed.
func (s *Sim) measureSleeper(sg *sleepingGroup) {
	p := s.P
	sg.nodeBox = emptyBox()
	sg.maxWave2 = 0
	for k := sg.start; k < sg.end; k++ {
		i := s.bins.order[k]
		sg.addStencil(stencilBase(p.X[i], s.invH))
		sg.maxWave2 = max(sg.maxWave2, p.storedWaveSpeed2(int(i)))
	}
}

// boxMask returns the nodes of the node block at coordinate c that lie in the box of
// nodes lo to hi (inclusive), as bits: node (a, b, cc) of the block is bit
// (a*4 + b)*4 + cc, as in nodeBlock.
func boxMask(c, lo, hi [3]int) uint64 {
	var axis [3]uint64 // per axis, the block's rows within the box, bit a for row a
	for d := range axis {
		for a := 0; a < blockWidth; a++ {
			if n := c[d]<<blockShift + a; n >= lo[d] && n <= hi[d] {
				axis[d] |= 1 << a
			}
		}
	}
	var m uint64
	for a := 0; a < blockWidth; a++ {
		for b := 0; b < blockWidth; b++ {
			if axis[0]>>a&1 != 0 && axis[1]>>b&1 != 0 {
				m |= axis[2] << ((a*blockWidth + b) * blockWidth)
			}
		}
	}
	return m
}

// holdPinned is the grid update of a node that sleeping snow holds (node k of a block
// whose pinned nodes are pins): if it is one, it sets its velocity v to 0 and returns
// true.
func holdPinned(k int, pins uint64, v *geom.Vec3) bool {
	if pins>>k&1 == 0 {
		return false
	}
	*v = geom.Vec3{}
	return true
}

// pinnedNodes returns the nodes of grid block bi that sleeping snow holds, as bits.
func (s *Sim) pinnedNodes(bi int) uint64 {
	if len(s.sleep.groups) == 0 {
		return 0
	}
	return s.sleep.pinned[bi]
}

// settle ends a step with sleep on: it advances or resets the Quiet time of the awake
// groups' particles, wakes the sleeping groups that something moving reached, and
// counts the wave speed of the sleeping groups that may take part in the next step.
//
// Rest is judged by the particles' velocities v_p^{n+1}, not by the nodes': a node at
// the edge of the snow, with a sliver of mass, takes f_i / m_i from the stress of
// equation (6) and moves at metres per second in snow whose particles move at tens of
// micrometres per second, while a particle's velocity weighs its nodes by their
// share of it. Likewise a held node's would-be velocity v* is no sign of motion (under
// awake snow resting on sleeping snow it is the weight that the node carries, g dt),
// so what wakes a sleeping group is an awake particle moving at SleepSpeed or more
// whose stencil reaches one of its held nodes.
func (s *Sim) settle(dt, t1 float64) {
	p := s.P
	if p.Quiet == nil {
		return
	}
	sl := &s.sleep
	allowed := s.sleepAllowed()
	rested := float32(s.cfg.sleepTime())
	limit2 := s.cfg.sleepSpeed() * s.cfg.sleepSpeed()
	sl.moving = append(sl.moving[:0], make([]nodeBox, len(s.bins.blocks))...)
	parallel.For(s.threads, len(s.bins.blocks), func(_, k int) {
		g := &s.bins.blocks[k]
		touches := s.touchesPinned(g)
		fastest2 := 0.0
		moving := emptyBox()
		for k := g.start; k < g.end; k++ {
			i := s.bins.order[k]
			v := &p.V[i]
			speed2 := v[0]*v[0] + v[1]*v[1] + v[2]*v[2]
			fastest2 = max(fastest2, speed2)
			if touches && speed2 >= limit2 {
				moving.addStencil(stencilBase(p.X[i], s.invH))
			}
		}
		sl.moving[k] = moving
		quiet := allowed && fastest2 < limit2 && !s.colliderStirs(g.coord, dt, t1)
		for k := g.start; k < g.end; k++ {
			i := s.bins.order[k]
			if quiet {
				p.Quiet[i] = min(p.Quiet[i]+float32(dt), rested)
			} else {
				p.Quiet[i] = 0
			}
		}
	})
	if len(sl.groups) == 0 {
		return
	}
	// The held nodes that moving particles reach, group by group: neighbouring groups
	// share window blocks, so this part runs in one goroutine.
	for k := range s.bins.blocks {
		if m := &sl.moving[k]; !m.empty() {
			g := &s.bins.blocks[k]
			for d, blk := range g.window {
				if pins := sl.pinned[blk]; pins != 0 {
					sl.disturbed[blk] |= pins & boxMask(windowBlock(g.coord, d), m.lo, m.hi)
				}
			}
		}
	}
	parallel.For(s.threads, len(sl.groups), func(_, k int) {
		sg := &sl.groups[k]
		if !s.disturbedGroup(sg) && !s.colliderStirs(sg.coord, dt, t1) {
			return
		}
		for k := sg.start; k < sg.end; k++ {
			p.Quiet[s.bins.order[k]] = 0
		}
	})
	// The next step's length counts the wave speed of every group that may take part
	// in it: those woken now, all of them if sleep ends (gravity starts, a press or
	// sintering begins), and those that border awake snow (pinSleepingNodes), which an
	// awake particle may join and wake by moving into its block. A group whose window
	// holds no grid block had no awake particle in its block or the 26 around it at
	// this step's start (their windows would share a block with its window); if no
	// particle moved a block (4 cells) in this step (dt |v^{n+1}|, the advection;
	// the CFL holds it to about a cell, but a collider may throw snow faster than the
	// last step's speeds), none has reached its block, so the rest sleep through the
	// next step too. They integrate nothing, so their stiffness (hard-packed snow,
	// whose wave speed would otherwise set every step's length) cannot make that step
	// unstable.
	wave2, all := sl.maxWave2, !s.sleepAllowedAt(t1) || s.maxSpeed*dt >= blockWidth*s.cfg.H
	for k := range sl.groups {
		if sg := &sl.groups[k]; all || p.Quiet[s.bins.order[sg.start]] == 0 {
			wave2 = max(wave2, sg.maxWave2)
		}
	}
	s.maxWaveSpeed = max(s.maxWaveSpeed, math.Sqrt(wave2))
}

// touchesPinned reports whether the window of group g holds a node that sleeping snow
// holds.
func (s *Sim) touchesPinned(g *particleBlock) bool {
	if len(s.sleep.groups) == 0 {
		return false
	}
	for _, blk := range g.window {
		if s.sleep.pinned[blk] != 0 {
			return true
		}
	}
	return false
}

// nodeBox is a box of grid nodes, lo to hi inclusive; empty when lo > hi.
type nodeBox struct{ lo, hi [3]int }

// emptyBox returns a box that holds no node.
func emptyBox() nodeBox {
	return nodeBox{lo: [3]int{math.MaxInt, math.MaxInt, math.MaxInt}, hi: [3]int{math.MinInt, math.MinInt, math.MinInt}}
}

// empty reports whether the box holds no node.
func (b *nodeBox) empty() bool { return b.lo[0] > b.hi[0] }

// addStencil grows the box to hold the 4x4x4 stencil whose first node is base.
func (b *nodeBox) addStencil(base [3]int) {
	for a := range base {
		b.lo[a] = min(b.lo[a], base[a])
		b.hi[a] = max(b.hi[a], base[a]+blockWidth-1)
	}
}

// windowBlock returns the coordinate of node block d of the window of the group at
// block coordinate c, d = ((dx*2)+dy)*2+dz as in particleBlock.window.
func windowBlock(c [3]int, d int) [3]int {
	return [3]int{c[0] + d>>2, c[1] + (d>>1)&1, c[2] + d&1}
}

// disturbedGroup reports whether awake snow or a collision moved a node that sleeping
// group sg holds.
func (s *Sim) disturbedGroup(sg *sleepingGroup) bool {
	for d, blk := range sg.window {
		if blk >= 0 && s.sleep.disturbed[blk]&sg.masks[d] != 0 {
			return true
		}
	}
	return false
}

// colliderStirs reports whether a collider moving at SleepSpeed or more comes within
// reach of the particles of the group at block coordinate c by the end of the next
// step: the particles lie within sqrt(3) 2h of the group's centre (groupColliders),
// their stencils reach 2h further, and a cell more covers the collider's approach; the
// collider may also travel 2 dt |v| (this step's length, and a next one as long). Walls
// and other still colliders never stir.
func (s *Sim) colliderStirs(c [3]int, dt, t1 float64) bool {
	h := s.cfg.H
	limit := s.cfg.sleepSpeed()
	origin := [3]int{c[0] << blockShift, c[1] << blockShift, c[2] << blockShift}
	centre := geom.Vec3{float64(origin[0]+3) * h, float64(origin[1]+3) * h, float64(origin[2]+3) * h}
	reach := math.Sqrt(3)*2*h + 3*h
	for _, co := range s.colliders {
		phi, _, v := co.Sample(centre, t1)
		if speed := v.Norm(); speed >= limit && phi < reach+2*dt*speed {
			return true
		}
	}
	return false
}
