package simcore

import (
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/linalg"
)

// The Hessian on the grid: its action on a vector of node velocities, equations (7) and
// (8), and its diagonal, which preconditions the solve (implicit.go). Both run over the
// particles the way the force scatter of stage 3 does: colour by colour, each particle
// block gathering through its window of nodes and scattering into another.

// paddedVec is a node's vector in the solve's windows: (x, y, z, 0), 32 bytes, so that
// a node is one AVX2 register and the assembly (hessian_avx2_amd64.s) loads and adds
// it in one instruction. The solver's vectors over the grid stay []geom.Vec3;
// scatterParticles copies them into and out of the windows.
type paddedVec [4]float64

// diagonalCoeffs is what scatterDiagonalAVX2 needs of a particle besides its kernel:
// the preconditioner's blocks Q^a (stiffness.diagonalBlocks) by entry, each entry a
// vector over a = x, y, z (and a zero lane), entry 3 (xy) doubled as scatterDiagonal
// doubles it: xx, yy, zz, 2 xy, xz, yz.
type diagonalCoeffs [6][4]float64

// linearise is the solve's setup in one pass over the particles: it computes every
// particle's stiffness from F_E^n (hessian.go) and, while the particle is at hand, sets
// hu to H u and diag to the diagonal of H, so that the linearisation, the
// preconditioner and the first residual cost one gather and two scatters per particle
// rather than three passes.
//
// The diagonal of H, which preconditions the solve: diag_i[a] = (H e_ia)_ia, where e_ia
// is the increment of component a at node i alone. There h grad u = e_a (h grad w_ip)^T,
// so diag_i[a] = sum_p (h grad w_ip)^T Q^a (h grad w_ip) with Q^a the 3x3 block of the
// particle's stiffness that row a of grad u sees (stiffness.diagonalBlocks), scattered
// by scatterDiagonal.
func (s *Sim) linearise(u, hu, diag []geom.Vec3) {
	p, st := s.P, &s.implicit
	if cap(st.stiffness) < p.Len() {
		st.stiffness = make([]stiffness, p.Len())
	}
	st.stiffness = st.stiffness[:p.Len()]
	s.scatterParticles(u, hu, diag, func(k, i int, in, acc, accDiag *window[paddedVec], ker *kernel, ox, oy, oz int) {
		f := p.FE[i].mat3()
		mu, lambda := p.Mat[i].hardened(float64(p.JP[i]))
		sk := &st.stiffness[k]
		*sk = stiffnessOf(&f, mu, lambda, float64(p.Vol0[i]), s.invH)
		grad := windowGradient(in, ker, ox, oy, oz) // h grad u
		gm := sk.apply(&grad)
		scatterGradient(acc, ker, ox, oy, oz, &gm)
		q := sk.diagonalBlocks()
		scatterDiagonal(accDiag, ker, ox, oy, oz, &q)
	})
}

// applyHessian sets out to H u: (H u)_i = sum_p V_p^0 dP_p(dF_p) (F_Ep^n)^T grad w_ip with
// dF_p = (sum_j u_j (grad w_jp)^T) F_Ep^n, from the stiffness linearise computed.
func (s *Sim) applyHessian(u, out []geom.Vec3) {
	stiff := s.implicit.stiffness
	s.scatterParticles(u, out, nil, func(k, _ int, in, acc, _ *window[paddedVec], ker *kernel, ox, oy, oz int) {
		grad := windowGradient(in, ker, ox, oy, oz) // h grad u
		gm := stiff[k].apply(&grad)
		scatterGradient(acc, ker, ox, oy, oz, &gm)
	})
}

// scatterParticles runs perParticle for every particle (in bins order: k its position,
// i its index) with its kernel and stencil offset in its block's windows: in holds u
// around the block (when u is not nil), and what perParticle adds to acc and accDiag is
// added to out and outDiag (when outDiag is not nil). out and outDiag are cleared first.
func (s *Sim) scatterParticles(u, out, outDiag []geom.Vec3, perParticle func(k, i int, in, acc, accDiag *window[paddedVec], ker *kernel, ox, oy, oz int)) {
	clear(out)
	clear(outDiag)
	st := &s.implicit
	if len(st.diagWindows) < len(s.work) {
		st.diagWindows = make([]window[paddedVec], len(s.work))
	}
	invH := s.invH
	for color := range s.bins.colors {
		list := s.bins.colors[color]
		parallel.For(s.threads, len(list), func(w, b int) {
			g := &s.bins.blocks[list[b]]
			in, acc, accDiag := &s.work[w].vecIn, &s.work[w].vecOut, &st.diagWindows[w]
			if u != nil {
				forWindowRows(g, in, vectorRows(u), func(w *[blockWidth]paddedVec, n *[blockWidth]geom.Vec3) {
					for c := range w {
						w[c] = paddedVec{n[c][0], n[c][1], n[c][2], 0}
					}
				})
			}
			var ker kernel
			for k := g.start; k < g.end; k++ {
				i := s.bins.order[k]
				ox, oy, oz := stencilOffset(kernelAt(s.P.X[i], invH, &ker))
				perParticle(int(k), int(i), in, acc, accDiag, &ker, ox, oy, oz)
			}
			addWindow(g, acc, out)
			if outDiag != nil {
				addWindow(g, accDiag, outDiag)
			}
		})
	}
}

// addWindow adds a block's window of node vectors into v (their x, y, z) and clears
// the window.
func addWindow(g *particleBlock, win *window[paddedVec], v []geom.Vec3) {
	forWindowRows(g, win, vectorRows(v), func(w *[blockWidth]paddedVec, n *[blockWidth]geom.Vec3) {
		for c := range w {
			n[c] = n[c].Add(geom.Vec3{w[c][0], w[c][1], w[c][2]})
		}
		*w = [blockWidth]paddedVec{}
	})
}

// windowGradient returns h grad u = sum_i u_i (h grad w_ip)^T over a particle's stencil,
// row-major: entry (r, c) is sum_i u_i[r] (h grad w_ip)[c]. As in interpolate, the
// tensor-product kernel lets the sums run along z first: for each (a, b) the sums
// Sw = sum_c u Wz[c] and Sd = sum_c u Dz[c], then (h grad w) components
// (Dx Wy Sw, Wx Dy Sw, Wx Wy Sd), written out per component to stay in registers.
func windowGradient(win *window[paddedVec], ker *kernel, ox, oy, oz int) linalg.Mat3 {
	if !useAVX2 {
		return windowGradientGo(win, ker, ox, oy, oz)
	}
	var g linalg.Mat3
	const mask = blockWidth - 1 // in bounds, as stencilOffset says
	windowGradientAVX2(&win[ox&mask][oy&mask][oz&mask], ker, &g)
	return g
}

// windowGradientGo is windowGradient in Go, which windowGradientAVX2 does with vectors.
func windowGradientGo(win *window[paddedVec], ker *kernel, ox, oy, oz int) linalg.Mat3 {
	w0, w1, w2, w3 := ker.W[2][0], ker.W[2][1], ker.W[2][2], ker.W[2][3]
	d0, d1, d2, d3 := ker.D[2][0], ker.D[2][1], ker.D[2][2], ker.D[2][3]
	var g linalg.Mat3
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			row := (*[4]paddedVec)(win[ox+a][oy+b][oz:])
			u0, u1, u2, u3 := &row[0], &row[1], &row[2], &row[3]
			swx := u0[0]*w0 + u1[0]*w1 + u2[0]*w2 + u3[0]*w3
			swy := u0[1]*w0 + u1[1]*w1 + u2[1]*w2 + u3[1]*w3
			swz := u0[2]*w0 + u1[2]*w1 + u2[2]*w2 + u3[2]*w3
			sdx := u0[0]*d0 + u1[0]*d1 + u2[0]*d2 + u3[0]*d3
			sdy := u0[1]*d0 + u1[1]*d1 + u2[1]*d2 + u3[1]*d3
			sdz := u0[2]*d0 + u1[2]*d1 + u2[2]*d2 + u3[2]*d3
			dab := ker.D[0][a] * ker.W[1][b]
			adb := ker.W[0][a] * ker.D[1][b]
			wab := ker.W[0][a] * ker.W[1][b]
			g[0] += swx * dab
			g[1] += swx * adb
			g[2] += sdx * wab
			g[3] += swy * dab
			g[4] += swy * adb
			g[5] += sdy * wab
			g[6] += swz * dab
			g[7] += swz * adb
			g[8] += sdz * wab
		}
	}
	return g
}

// scatterGradient adds m (h grad w_ip) to every node of a particle's stencil. With
// h grad w = (Dx Wy Wz, Wx Dy Wz, Wx Wy Dz), node (a, b, c) receives P Wz[c] + Q Dz[c]
// with P = m (Dx Wy, Wx Dy, 0) and Q = m (0, 0, Wx Wy), fixed along z (as in scatterParticle).
func scatterGradient(win *window[paddedVec], ker *kernel, ox, oy, oz int, m *linalg.Mat3) {
	if !useAVX2 {
		scatterGradientGo(win, ker, ox, oy, oz, m)
		return
	}
	const mask = blockWidth - 1 // in bounds, as stencilOffset says
	scatterGradientAVX2(&win[ox&mask][oy&mask][oz&mask], ker, m)
}

// scatterGradientGo is scatterGradient in Go, which scatterGradientAVX2 does with
// vectors.
func scatterGradientGo(win *window[paddedVec], ker *kernel, ox, oy, oz int, m *linalg.Mat3) {
	w0, w1, w2, w3 := ker.W[2][0], ker.W[2][1], ker.W[2][2], ker.W[2][3]
	d0, d1, d2, d3 := ker.D[2][0], ker.D[2][1], ker.D[2][2], ker.D[2][3]
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			dab := ker.D[0][a] * ker.W[1][b]
			adb := ker.W[0][a] * ker.D[1][b]
			wab := ker.W[0][a] * ker.W[1][b]
			px, py, pz := m[0]*dab+m[1]*adb, m[3]*dab+m[4]*adb, m[6]*dab+m[7]*adb
			qx, qy, qz := m[2]*wab, m[5]*wab, m[8]*wab
			row := (*[4]paddedVec)(win[ox+a][oy+b][oz:])
			n0, n1, n2, n3 := &row[0], &row[1], &row[2], &row[3]
			n0[0] += px*w0 + qx*d0
			n1[0] += px*w1 + qx*d1
			n2[0] += px*w2 + qx*d2
			n3[0] += px*w3 + qx*d3
			n0[1] += py*w0 + qy*d0
			n1[1] += py*w1 + qy*d1
			n2[1] += py*w2 + qy*d2
			n3[1] += py*w3 + qy*d3
			n0[2] += pz*w0 + qz*d0
			n1[2] += pz*w1 + qz*d1
			n2[2] += pz*w2 + qz*d2
			n3[2] += pz*w3 + qz*d3
		}
	}
}

// scatterDiagonal adds (h grad w)^T Q^a (h grad w) to component a of every node of a
// particle's stencil. With h grad w = (X Wz, Y Wz, Z Dz), X = Dx Wy, Y = Wx Dy, Z = Wx Wy,
// the quadratic form is alpha Wz^2 + beta Wz Dz + gamma Dz^2 with alpha, beta, gamma
// fixed along z.
func scatterDiagonal(win *window[paddedVec], ker *kernel, ox, oy, oz int, q *[3][6]float64) {
	if !useAVX2 {
		scatterDiagonalGo(win, ker, ox, oy, oz, q)
		return
	}
	var c diagonalCoeffs
	for e := range c {
		for a := range q {
			c[e][a] = q[a][e]
		}
	}
	for a := range q {
		c[3][a] = 2 * q[a][3] // as scatterDiagonalGo's 2*qm[3], the same bits
	}
	const mask = blockWidth - 1 // in bounds, as stencilOffset says
	scatterDiagonalAVX2(&win[ox&mask][oy&mask][oz&mask], ker, &c)
}

// scatterDiagonalGo is scatterDiagonal in Go, which scatterDiagonalAVX2 does with
// vectors.
func scatterDiagonalGo(win *window[paddedVec], ker *kernel, ox, oy, oz int, q *[3][6]float64) {
	var ww, wd, dd [4]float64
	for c := 0; c < 4; c++ {
		ww[c] = ker.W[2][c] * ker.W[2][c]
		wd[c] = ker.W[2][c] * ker.D[2][c]
		dd[c] = ker.D[2][c] * ker.D[2][c]
	}
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			x, y, z := ker.D[0][a]*ker.W[1][b], ker.W[0][a]*ker.D[1][b], ker.W[0][a]*ker.W[1][b]
			var alpha, beta, gamma geom.Vec3
			for m := 0; m < 3; m++ {
				qm := &q[m]
				alpha[m] = qm[0]*x*x + 2*qm[3]*x*y + qm[1]*y*y
				beta[m] = 2 * (qm[4]*x + qm[5]*y) * z
				gamma[m] = qm[2] * z * z
			}
			row := (*[4]paddedVec)(win[ox+a][oy+b][oz:])
			for c := 0; c < 4; c++ {
				for m := 0; m < 3; m++ {
					row[c][m] += alpha[m]*ww[c] + beta[m]*wd[c] + gamma[m]*dd[c]
				}
			}
		}
	}
}
