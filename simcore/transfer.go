package simcore

import (
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/linalg"
)

// Transfers between particles and the grid. A worker handles one particle block at a
// time through a dense window of its 2x2x2 node blocks (see bins.go).

// window is a particle block's 2x2x2 node blocks as one dense array, indexed [x][y][z]
// from the first node of the block.
type window[T any] [windowWidth][windowWidth][windowWidth]T

// stencilOffset returns where a stencil whose first node is base starts in its group's
// window. Grouping by the block of base puts it within the first block, so the offsets
// are base mod 4; saying so with a mask lets the compiler prove that win[ox+a][oy+b][oz+c]
// is in bounds for a, b, c < 4 and drop the checks from the transfers' inner loops.
func stencilOffset(base [3]int) (ox, oy, oz int) {
	const m = blockWidth - 1
	return base[0] & m, base[1] & m, base[2] & m
}

// forWindowRows calls fn for every row of four nodes along z of a window, with the
// same nodes in a grid array: win[x][y][z:z+4] and the row that row(block, offset)
// returns, offset being the row's first node within its node block. The grid's node
// blocks (nodeRows) and per-node vectors (vectorRows) are such arrays.
func forWindowRows[T, N any](g *particleBlock, win *window[T], row func(block int32, offset int) *[blockWidth]N,
	fn func(w *[blockWidth]T, n *[blockWidth]N)) {
	for d := 0; d < 8; d++ {
		blk := g.window[d]
		ox, oy, oz := (d>>2)*blockWidth, ((d>>1)&1)*blockWidth, (d&1)*blockWidth
		for a := 0; a < blockWidth; a++ {
			for b := 0; b < blockWidth; b++ {
				fn((*[blockWidth]T)(win[ox+a][oy+b][oz:]), row(blk, (a*blockWidth+b)*blockWidth))
			}
		}
	}
}

// nodeRows returns the row accessor of the grid's nodes for forWindowRows.
func (g *sparseGrid) nodeRows() func(block int32, offset int) *[blockWidth]node {
	return func(b int32, off int) *[blockWidth]node { return (*[blockWidth]node)(g.blocks[b][off:]) }
}

// velocityRows returns the row accessor of the grid's node velocities for
// forWindowRows.
func (g *sparseGrid) velocityRows() func(block int32, offset int) *[blockWidth]nodeVelocity {
	return func(b int32, off int) *[blockWidth]nodeVelocity {
		return (*[blockWidth]nodeVelocity)(g.velocities[b][off:])
	}
}

// vectorRows returns the row accessor for forWindowRows of a vector with one value per
// grid node, node n of block b at b*blockNodes + n.
func vectorRows(v []geom.Vec3) func(block int32, offset int) *[blockWidth]geom.Vec3 {
	return func(b int32, off int) *[blockWidth]geom.Vec3 {
		return (*[blockWidth]geom.Vec3)(v[int(b)*blockNodes+off:])
	}
}

// rasterize is stages 1 and 3 in one pass over the particles, which scatter with the
// same weights: stage 1 the mass m_i = sum_p m_p w_ip and the momentum
// sum_p m_p v_p w_ip (which the grid update divides by m_i, so that velocities use
// normalized weights and momentum is conserved), stage 3 the force of equation (6),
// f_i = -sum_p V_p^n sigma_p grad w_ip, from the stress that stage 7 of the previous
// step left (zero on the first step, when F_E = I), plus the presses' forces
// sum_p w_ip b_p. Each particle's kernel is computed once for the three (kernelAt),
// and again, the same, for the transfer back.
func (s *Sim) rasterize() {
	for color := range s.bins.colors {
		list := s.bins.colors[color]
		parallel.For(s.threads, len(list), func(w, k int) {
			s.rasterizeBlock(&s.work[w].window, &s.bins.blocks[list[k]])
		})
	}
}

// rasterizeBlock is rasterize on the particles of one block, through the worker's
// window, which it then adds into the grid.
func (s *Sim) rasterizeBlock(win *window[node], g *particleBlock) {
	p := s.P
	invH := s.invH
	var kernels kernelsAhead
	order := s.bins.order[g.start:g.end]
	for n, i := range order {
		// The weights the gather will compute again:
		ker, ox, oy, oz := kernels.next(n, order, p.X, invH)
		scatterParticle(win, ker, ox, oy, oz, float64(p.Mass[i]), &p.V[i], &p.stress[i], invH) // 1 and 3
		if p.Affine != nil {
			E := ker.moments(p.X[i], invH)
			scatterAffineMomentum(win, ker, &E, ox, oy, oz, float64(p.Mass[i]), &p.Affine[i], s.cfg.H) // 1, APIC
		}
		if len(s.pressed) > 0 {
			scatterExternalForce(win, ker, ox, oy, oz, s.pressDensity(p.X[i]).Scale(float64(p.Vol0[i]))) // 3, the presses
		}
	}
	// Add the window into the grid and clear it for the next block. Blocks of one colour
	// have disjoint windows, so no other worker touches these nodes now.
	forWindowRows(g, win, s.grid.nodeRows(), func(src, dst *[blockWidth]node) {
		for c := range src {
			dst[c].mass += src[c].mass
			dst[c].momentum = dst[c].momentum.Add(src[c].momentum)
			dst[c].force = dst[c].force.Add(src[c].force)
		}
		*src = [blockWidth]node{}
	})
}

// scatterParticle is stages 1 and 3 for a particle of mass m and velocity v whose
// V_p^0 tau_p = V_p^n sigma_p is st, whose kernel is ker and whose stencil starts at
// (ox, oy, oz) in the window: stage 1, m_i += m w_ip and momentum_i += m v w_ip;
// stage 3, the force of equation (6), f_i += -V_p^n sigma_p grad w_ip. The two share
// one loop over the stencil, which BenchmarkRasterize measures 5-10% faster than a
// loop for each.
func scatterParticle(win *window[node], ker *kernel, ox, oy, oz int, m float64, v *geom.Vec3, st *sym3f, invH float64) {
	if useAVX2 {
		sxx, syy, szz := -float64(st[0])*invH, -float64(st[1])*invH, -float64(st[2])*invH
		sxy, sxz, syz := -float64(st[3])*invH, -float64(st[4])*invH, -float64(st[5])*invH
		c := scatterCoeffs{
			mass: [4]float64{m, m * v[0], m * v[1], m * v[2]},
			s0:   [4]float64{sxx, sxy, sxz, 0},
			s1:   [4]float64{sxy, syy, syz, 0},
			s2:   [4]float64{sxz, syz, szz, 0},
		}
		const mask = blockWidth - 1 // in bounds, as stencilOffset says
		scatterRowsAVX2(&win[ox&mask][oy&mask][oz&mask], ker, &c)
		return
	}
	scatterParticleGo(win, ker, ox, oy, oz, m, *v, st, invH)
}

// scatterParticleGo is scatterParticle in Go, which scatterRowsAVX2 does with vectors.
func scatterParticleGo(win *window[node], ker *kernel, ox, oy, oz int, m float64, v geom.Vec3, st *sym3f, invH float64) {
	mv := v.Scale(m)
	// The force on node (a, b, c) is -V sigma grad w = -(S/h) h grad w with the
	// stress S symmetric. h grad w = (Dx Wy Wz, Wx Dy Wz, Wx Wy Dz), so
	// -(S/h) h grad w = Wz P + Dz Q with P = -(S/h)(Dx Wy, Wx Dy, 0) and
	// Q = -(S/h)(0, 0, Wx Wy), which are fixed along the innermost axis.
	sxx, syy, szz := -float64(st[0])*invH, -float64(st[1])*invH, -float64(st[2])*invH
	sxy, sxz, syz := -float64(st[3])*invH, -float64(st[4])*invH, -float64(st[5])*invH
	w0, w1, w2, w3 := ker.W[2][0], ker.W[2][1], ker.W[2][2], ker.W[2][3]
	d0, d1, d2, d3 := ker.D[2][0], ker.D[2][1], ker.D[2][2], ker.D[2][3]
	for a := 0; a < 4; a++ {
		wa, da := ker.W[0][a], ker.D[0][a]
		for b := 0; b < 4; b++ {
			wab := wa * ker.W[1][b]
			dab := da * ker.W[1][b] // slope along x
			adb := wa * ker.D[1][b] // slope along y
			pxx, pxy, pxz := sxx*dab+sxy*adb, sxy*dab+syy*adb, sxz*dab+syz*adb
			qxx, qxy, qxz := sxz*wab, syz*wab, szz*wab
			mw, mvx, mvy, mvz := m*wab, mv[0]*wab, mv[1]*wab, mv[2]*wab
			row := &win[ox+a][oy+b]
			// The four nodes along z, unrolled (as in interpolate).
			n0, n1, n2, n3 := &row[oz], &row[oz+1], &row[oz+2], &row[oz+3]
			n0.mass += mw * w0 // 1
			n1.mass += mw * w1
			n2.mass += mw * w2
			n3.mass += mw * w3
			n0.momentum[0] += mvx * w0
			n1.momentum[0] += mvx * w1
			n2.momentum[0] += mvx * w2
			n3.momentum[0] += mvx * w3
			n0.momentum[1] += mvy * w0
			n1.momentum[1] += mvy * w1
			n2.momentum[1] += mvy * w2
			n3.momentum[1] += mvy * w3
			n0.momentum[2] += mvz * w0
			n1.momentum[2] += mvz * w1
			n2.momentum[2] += mvz * w2
			n3.momentum[2] += mvz * w3
			n0.force[0] += pxx*w0 + qxx*d0 // 3
			n1.force[0] += pxx*w1 + qxx*d1
			n2.force[0] += pxx*w2 + qxx*d2
			n3.force[0] += pxx*w3 + qxx*d3
			n0.force[1] += pxy*w0 + qxy*d0
			n1.force[1] += pxy*w1 + qxy*d1
			n2.force[1] += pxy*w2 + qxy*d2
			n3.force[1] += pxy*w3 + qxy*d3
			n0.force[2] += pxz*w0 + qxz*d0
			n1.force[2] += pxz*w1 + qxz*d1
			n2.force[2] += pxz*w2 + qxz*d2
			n3.force[2] += pxz*w3 + qxz*d3
		}
	}
}

// scatterExternalForce adds a particle's external force b to the grid forces, f_i += w_ip b.
func scatterExternalForce(win *window[node], ker *kernel, ox, oy, oz int, b geom.Vec3) {
	if b == (geom.Vec3{}) {
		return
	}
	for a := 0; a < 4; a++ {
		for c := 0; c < 4; c++ {
			row := &win[ox+a][oy+c]
			wab := ker.W[0][a] * ker.W[1][c]
			for d := 0; d < 4; d++ {
				n := &row[oz+d]
				n.force = n.force.Add(b.Scale(wab * ker.W[2][d]))
			}
		}
	}
}

// measureVolumes is stage 2: each particle's initial density
// rho_p^0 = sum_i m_i^0 w_ip^0 / h^3 from the grid mass, and volume V_p^0 = m_p / rho_p^0.
// It rasterizes mass itself so that it can also run before the first step (the first
// time step needs the elastic wave speed, which needs rho_p^0).
func (s *Sim) measureVolumes() {
	if s.P.Len() == 0 {
		s.volumesKnown = true
		return
	}
	s.binParticles()
	s.rasterize()
	s.gatherVolumes()
}

// gatherVolumes finishes stage 2 from the grid masses of this step's rasterization.
func (s *Sim) gatherVolumes() {
	p := s.P
	h := s.cfg.H
	h3 := h * h * h
	parallel.For(s.threads, len(s.bins.blocks), func(w, k int) {
		g := &s.bins.blocks[k]
		win := &s.work[w].window
		forWindowRows(g, win, s.grid.nodeRows(), func(w, n *[blockWidth]node) {
			for c := range w {
				w[c].mass = n[c].mass
			}
		})
		var ker kernel
		for k := g.start; k < g.end; k++ {
			i := s.bins.order[k]
			base := kernelAt(p.X[i], s.invH, &ker)
			ox, oy, oz := stencilOffset(base)
			rho := 0.0
			for a := 0; a < 4; a++ {
				for b := 0; b < 4; b++ {
					row := &win[ox+a][oy+b]
					wab := ker.W[0][a] * ker.W[1][b]
					for c := 0; c < 4; c++ {
						rho += row[oz+c].mass * wab * ker.W[2][c]
					}
				}
			}
			rho /= h3
			p.Vol0[i] = float32(float64(p.Mass[i]) / rho)
		}
		*win = window[node]{}
	})
	s.volumesKnown = true
	s.maxSpeed = 0
	for i := range p.X {
		s.maxSpeed = max(s.maxSpeed, p.V[i].Norm())
	}
	s.maxWaveSpeed = p.fastestWave()
}

// interpolate returns, for a particle whose kernel is ker and whose stencil starts at
// offset (ox, oy, oz) of the window (see stencilOffset), the PIC velocity sum_i v_i^{n+1} w_ip, the FLIP change
// sum_i (v_i^{n+1} - v_i^n) w_ip, and h grad v_p = h sum_i v_i^{n+1} (grad w_ip)^T.
//
// The kernel is a tensor product, w_ip = Wx[a] Wy[b] Wz[c] and h grad w_ip =
// (Dx[a] Wy[b] Wz[c], Wx[a] Dy[b] Wz[c], Wx[a] Wy[b] Dz[c]), so the sums run one axis at a
// time: along z with Wz and Dz, then along y, then along x, each pass with few enough
// running sums to stay in registers. That is about two thirds of the multiply-adds of
// summing node by node.
func interpolate(nodes *window[nodeVelocity], ker *kernel, ox, oy, oz int) (vPIC, dv geom.Vec3, hGrad linalg.Mat3) {
	interpolateTo(nodes, ker, ox, oy, oz, &vPIC, &dv, &hGrad)
	return vPIC, dv, hGrad
}

// interpolateTo is interpolate with its results written through pointers, which the
// particle update uses: results returned by value are copied through the stack.
func interpolateTo(nodes *window[nodeVelocity], ker *kernel, ox, oy, oz int, vPIC, dv *geom.Vec3, hGrad *linalg.Mat3) {
	if !useAVX2 {
		*vPIC, *dv, *hGrad = interpolateGo(nodes, ker, ox, oy, oz)
		return
	}
	var o gatherSums
	const mask = blockWidth - 1 // in bounds, as stencilOffset says
	interpolateAVX2(&nodes[ox&mask][oy&mask][oz&mask], ker, &o)
	vPIC[0], vPIC[1], vPIC[2] = o[0], o[1], o[2]
	dv[0], dv[1], dv[2] = o[3], o[4], o[5]
	hGrad[0], hGrad[1], hGrad[2] = o[8], o[12], o[16]
	hGrad[3], hGrad[4], hGrad[5] = o[9], o[13], o[17]
	hGrad[6], hGrad[7], hGrad[8] = o[10], o[14], o[18]
}

// interpolateGo is interpolate in Go, which interpolateAVX2 does with vectors.
func interpolateGo(nodes *window[nodeVelocity], ker *kernel, ox, oy, oz int) (vPIC, dv geom.Vec3, hGrad linalg.Mat3) {
	// Along z, for each (a, b): sums with Wz of v and dv, and with Dz of v. The weights
	// stay in registers and the components are written out, so that every node value is
	// loaded once at a fixed offset (a loop over components would address each load
	// through its index, and reloading weights keeps the load ports busy).
	var alongZ [16][9]float64
	w0, w1, w2, w3 := ker.W[2][0], ker.W[2][1], ker.W[2][2], ker.W[2][3]
	d0, d1, d2, d3 := ker.D[2][0], ker.D[2][1], ker.D[2][2], ker.D[2][3]
	const m = blockWidth - 1
	ox, oy, oz = ox&m, oy&m, oz&m // no-ops that let the compiler drop the bounds checks
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			row := &nodes[ox+a][oy+b]
			n0, n1, n2, n3 := &row[oz], &row[oz+1], &row[oz+2], &row[oz+3]
			z := &alongZ[4*a+b]
			v0, v1, v2, v3 := n0.v[0], n1.v[0], n2.v[0], n3.v[0]
			z[0] = dot4(w0, w1, w2, w3, v0, v1, v2, v3)
			z[6] = dot4(d0, d1, d2, d3, v0, v1, v2, v3)
			z[3] = dot4(w0, w1, w2, w3, n0.dv[0], n1.dv[0], n2.dv[0], n3.dv[0])
			v0, v1, v2, v3 = n0.v[1], n1.v[1], n2.v[1], n3.v[1]
			z[1] = dot4(w0, w1, w2, w3, v0, v1, v2, v3)
			z[7] = dot4(d0, d1, d2, d3, v0, v1, v2, v3)
			z[4] = dot4(w0, w1, w2, w3, n0.dv[1], n1.dv[1], n2.dv[1], n3.dv[1])
			v0, v1, v2, v3 = n0.v[2], n1.v[2], n2.v[2], n3.v[2]
			z[2] = dot4(w0, w1, w2, w3, v0, v1, v2, v3)
			z[8] = dot4(d0, d1, d2, d3, v0, v1, v2, v3)
			z[5] = dot4(w0, w1, w2, w3, n0.dv[2], n1.dv[2], n2.dv[2], n3.dv[2])
		}
	}
	// Along y, for each a: sums with Wy Wz (v, dv), Dy Wz (v) and Wy Dz (v).
	var alongY [4][12]float64
	w0, w1, w2, w3 = ker.W[1][0], ker.W[1][1], ker.W[1][2], ker.W[1][3]
	d0, d1, d2, d3 = ker.D[1][0], ker.D[1][1], ker.D[1][2], ker.D[1][3]
	for a := 0; a < 4; a++ {
		z0, z1, z2, z3 := &alongZ[4*a], &alongZ[4*a+1], &alongZ[4*a+2], &alongZ[4*a+3]
		y := &alongY[a]
		for k := 0; k < 6; k++ {
			y[k] = dot4(w0, w1, w2, w3, z0[k], z1[k], z2[k], z3[k])
		}
		for k := 0; k < 3; k++ {
			y[6+k] = dot4(d0, d1, d2, d3, z0[k], z1[k], z2[k], z3[k])
			y[9+k] = dot4(w0, w1, w2, w3, z0[6+k], z1[6+k], z2[6+k], z3[6+k])
		}
	}
	// Along x.
	w0, w1, w2, w3 = ker.W[0][0], ker.W[0][1], ker.W[0][2], ker.W[0][3]
	d0, d1, d2, d3 = ker.D[0][0], ker.D[0][1], ker.D[0][2], ker.D[0][3]
	y0, y1, y2, y3 := &alongY[0], &alongY[1], &alongY[2], &alongY[3]
	for k := 0; k < 3; k++ {
		vPIC[k] = dot4(w0, w1, w2, w3, y0[k], y1[k], y2[k], y3[k])
		dv[k] = dot4(w0, w1, w2, w3, y0[3+k], y1[3+k], y2[3+k], y3[3+k])
		hGrad[3*k] = dot4(d0, d1, d2, d3, y0[k], y1[k], y2[k], y3[k])
		hGrad[3*k+1] = dot4(w0, w1, w2, w3, y0[6+k], y1[6+k], y2[6+k], y3[6+k])
		hGrad[3*k+2] = dot4(w0, w1, w2, w3, y0[9+k], y1[9+k], y2[9+k], y3[9+k])
	}
	return vPIC, dv, hGrad
}

// dot4 returns (w0, w1, w2, w3) . (x0, x1, x2, x3), summed in pairs to shorten the
// chain of additions.
func dot4(w0, w1, w2, w3, x0, x1, x2, x3 float64) float64 {
	return (w0*x0 + w1*x1) + (w2*x2 + w3*x3)
}
