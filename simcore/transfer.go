package simcore

import "math"

// Transfers between particles and the grid. A worker handles one particle block at a
// time through a dense window of its 2x2x2 node blocks (see bins.go).

// windowIndex returns the position in a window of the node at offset (a, b, c) from the
// window's first node.
func windowIndex(a, b, c int) int { return (a*windowWidth+b)*windowWidth + c }

// forWindowNodes calls fn(windowPos, block, nodeInBlock) for every node of a window.
func forWindowNodes(g *particleBlock, fn func(w int, block int32, n int)) {
	for d := 0; d < 8; d++ {
		blk := g.window[d]
		ox, oy, oz := (d>>2)*blockWidth, ((d>>1)&1)*blockWidth, (d&1)*blockWidth
		for a := 0; a < blockWidth; a++ {
			for b := 0; b < blockWidth; b++ {
				for c := 0; c < blockWidth; c++ {
					fn(windowIndex(ox+a, oy+b, oz+c), blk, (a*blockWidth+b)*blockWidth+c)
				}
			}
		}
	}
}

// rasterize is stages 1 and 3 in one pass over the particles: mass m_i = sum_p m_p w_ip,
// momentum sum_p m_p v_p w_ip (divided by m_i in the grid update, so that velocities use
// normalized weights and momentum is conserved), and the force of equation (6),
// f_i = -sum_p V_p^n sigma_p grad w_ip, from the stress that stage 7 of the previous step
// left (zero on the first step, when F_E = I). Each particle's kernel is computed here,
// once per step, and cached for the transfer back.
func (s *Sim) rasterize() {
	for color := range s.bins.colors {
		list := s.bins.colors[color]
		parallelFor(s.threads, len(list), func(w, k int) {
			s.rasterizeBlock(&s.work[w].window, &s.bins.blocks[list[k]])
		})
	}
}

func (s *Sim) rasterizeBlock(win *[windowNodes]node, g *particleBlock) {
	p := s.P
	invH := s.invH
	origin := [3]int{g.coord[0] << blockShift, g.coord[1] << blockShift, g.coord[2] << blockShift}
	for k := g.start; k < g.end; k++ {
		i := s.bins.order[k]
		base, ker := newKernel(p.X[i], invH)
		s.cache[k].store(&ker)
		s.cache[k].load(&ker) // scatter with exactly the weights the gather will use
		ox, oy, oz := base[0]-origin[0], base[1]-origin[1], base[2]-origin[2]

		m := float64(p.Mass[i])
		mv := p.V[i].Scale(m)
		// The force on node (a, b, c) is -V sigma grad w = -(S/h) h grad w with the
		// stress S symmetric. h grad w = (Dx Wy Wz, Wx Dy Wz, Wx Wy Dz), so
		// -(S/h) h grad w = Wz P + Dz Q with P = -(S/h)(Dx Wy, Wx Dy, 0) and
		// Q = -(S/h)(0, 0, Wx Wy), which are fixed along the innermost axis.
		st := &p.stress[i]
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
				row := win[windowIndex(ox+a, oy+b, oz):][:4]
				// The four nodes along z, unrolled (as in interpolate).
				n0, n1, n2, n3 := &row[0], &row[1], &row[2], &row[3]
				n0.mass += mw * w0
				n1.mass += mw * w1
				n2.mass += mw * w2
				n3.mass += mw * w3
				n0.mv[0] += mvx * w0
				n1.mv[0] += mvx * w1
				n2.mv[0] += mvx * w2
				n3.mv[0] += mvx * w3
				n0.mv[1] += mvy * w0
				n1.mv[1] += mvy * w1
				n2.mv[1] += mvy * w2
				n3.mv[1] += mvy * w3
				n0.mv[2] += mvz * w0
				n1.mv[2] += mvz * w1
				n2.mv[2] += mvz * w2
				n3.mv[2] += mvz * w3
				n0.f[0] += pxx*w0 + qxx*d0
				n1.f[0] += pxx*w1 + qxx*d1
				n2.f[0] += pxx*w2 + qxx*d2
				n3.f[0] += pxx*w3 + qxx*d3
				n0.f[1] += pxy*w0 + qxy*d0
				n1.f[1] += pxy*w1 + qxy*d1
				n2.f[1] += pxy*w2 + qxy*d2
				n3.f[1] += pxy*w3 + qxy*d3
				n0.f[2] += pxz*w0 + qxz*d0
				n1.f[2] += pxz*w1 + qxz*d1
				n2.f[2] += pxz*w2 + qxz*d2
				n3.f[2] += pxz*w3 + qxz*d3
			}
		}
	}
	// Add the window into the grid and clear it for the next block. Blocks of one colour
	// have disjoint windows, so no other worker touches these nodes now.
	blocks := s.grid.blocks
	forWindowNodes(g, func(w int, blk int32, n int) {
		src, dst := &win[w], &blocks[blk][n]
		dst.mass += src.mass
		dst.mv = dst.mv.Add(src.mv)
		dst.f = dst.f.Add(src.f)
		*src = node{}
	})
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
	h3 := s.H * s.H * s.H
	parallelFor(s.threads, len(s.bins.blocks), func(w, k int) {
		g := &s.bins.blocks[k]
		win := &s.work[w].window
		blocks := s.grid.blocks
		forWindowNodes(g, func(wi int, blk int32, n int) { win[wi].mass = blocks[blk][n].mass })
		origin := [3]int{g.coord[0] << blockShift, g.coord[1] << blockShift, g.coord[2] << blockShift}
		var ker kernel
		for k := g.start; k < g.end; k++ {
			i := s.bins.order[k]
			base := stencilBase(p.X[i], s.invH)
			s.cache[k].load(&ker)
			ox, oy, oz := base[0]-origin[0], base[1]-origin[1], base[2]-origin[2]
			rho := 0.0
			for a := 0; a < 4; a++ {
				for b := 0; b < 4; b++ {
					row := windowIndex(ox+a, oy+b, oz)
					wab := ker.W[0][a] * ker.W[1][b]
					for c := 0; c < 4; c++ {
						rho += win[row+c].mass * wab * ker.W[2][c]
					}
				}
			}
			rho /= h3
			p.Vol0[i] = float32(float64(p.Mass[i]) / rho)
		}
		for wi := range win {
			win[wi].mass = 0
		}
	})
	s.volumesKnown = true
	s.maxSpeed, s.maxWaveSpeed = 0, 0
	for i := range p.X {
		mu, lambda := p.Mat[i].hardened(float64(p.JP[i]))
		s.maxSpeed = max(s.maxSpeed, p.V[i].Norm())
		s.maxWaveSpeed = max(s.maxWaveSpeed, math.Sqrt(p.waveSpeed2(i, p.FE[i].Mat3().Det(), mu, lambda)))
	}
}

// interpolate returns, for a particle whose kernel is ker and whose stencil starts at
// window offset (ox, oy, oz), the PIC velocity sum_i v_i^{n+1} w_ip, the FLIP change
// sum_i (v_i^{n+1} - v_i^n) w_ip, and h grad v_p = h sum_i v_i^{n+1} (grad w_ip)^T.
//
// The kernel is a tensor product, w_ip = Wx[a] Wy[b] Wz[c] and h grad w_ip =
// (Dx[a] Wy[b] Wz[c], Wx[a] Dy[b] Wz[c], Wx[a] Wy[b] Dz[c]), so the sums run one axis at a
// time: along z with Wz and Dz, then along y, then along x, each pass with few enough
// running sums to stay in registers. That is about two thirds of the multiply-adds of
// summing node by node.
func interpolate(nodes *[windowNodes]nodeVelocity, ker *kernel, ox, oy, oz int) (vPIC, dv Vec3, hGrad Mat3) {
	// Along z, for each (a, b): sums with Wz of v and dv, and with Dz of v.
	var alongZ [16][9]float64
	w0, w1, w2, w3 := ker.W[2][0], ker.W[2][1], ker.W[2][2], ker.W[2][3]
	d0, d1, d2, d3 := ker.D[2][0], ker.D[2][1], ker.D[2][2], ker.D[2][3]
	for ab := 0; ab < 16; ab++ {
		// The four nodes along z, unrolled: the loop's bookkeeping costs as much as its sums.
		row := nodes[windowIndex(ox+ab>>2, oy+ab&3, oz):][:4]
		n0, n1, n2, n3 := &row[0], &row[1], &row[2], &row[3]
		z := &alongZ[ab]
		for k := 0; k < 3; k++ {
			v0, v1, v2, v3 := n0.v[k], n1.v[k], n2.v[k], n3.v[k]
			z[k] = w0*v0 + w1*v1 + w2*v2 + w3*v3
			z[6+k] = d0*v0 + d1*v1 + d2*v2 + d3*v3
			z[3+k] = w0*n0.dv[k] + w1*n1.dv[k] + w2*n2.dv[k] + w3*n3.dv[k]
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
			y[k] = w0*z0[k] + w1*z1[k] + w2*z2[k] + w3*z3[k]
		}
		for k := 0; k < 3; k++ {
			y[6+k] = d0*z0[k] + d1*z1[k] + d2*z2[k] + d3*z3[k]
			y[9+k] = w0*z0[6+k] + w1*z1[6+k] + w2*z2[6+k] + w3*z3[6+k]
		}
	}
	// Along x.
	w0, w1, w2, w3 = ker.W[0][0], ker.W[0][1], ker.W[0][2], ker.W[0][3]
	d0, d1, d2, d3 = ker.D[0][0], ker.D[0][1], ker.D[0][2], ker.D[0][3]
	y0, y1, y2, y3 := &alongY[0], &alongY[1], &alongY[2], &alongY[3]
	for k := 0; k < 3; k++ {
		vPIC[k] = w0*y0[k] + w1*y1[k] + w2*y2[k] + w3*y3[k]
		dv[k] = w0*y0[3+k] + w1*y1[3+k] + w2*y2[3+k] + w3*y3[3+k]
		hGrad[3*k] = d0*y0[k] + d1*y1[k] + d2*y2[k] + d3*y3[k]
		hGrad[3*k+1] = w0*y0[6+k] + w1*y1[6+k] + w2*y2[6+k] + w3*y3[6+k]
		hGrad[3*k+2] = w0*y0[9+k] + w1*y1[9+k] + w2*y2[9+k] + w3*y3[9+k]
	}
	return vPIC, dv, hGrad
}
