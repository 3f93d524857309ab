#include "textflag.h"

// The semi-implicit solve's per-particle loops in AVX2 (see hessian_avx2_amd64.go).
// Every lane does what the Go loop does for one value, in the same order, with no
// fused multiply-add. Each routine's reference, which says the math and which
// TestHessianAVX2SameBits compares it with to the bit, is a Go function of
// hessian_grid.go:
//
//	windowGradientAVX2   windowGradientGo: h grad u = sum_i u_i (h grad w_ip)^T over
//	                     the stencil, sums along z first
//	scatterGradientAVX2  scatterGradientGo: m (h grad w_ip) added to the 64 nodes
//	scatterDiagonalAVX2  scatterDiagonalGo: (h grad w)^T Q^a (h grad w) added to
//	                     component a of the 64 nodes
//
// A node of the window is a paddedVec, (x, y, z, 0) in one register: 32 bytes, a row
// of 8 along z 256 bytes, a plane 2048. kernel: W[axis][i] at 32*axis + 8*i,
// D[axis][i] at 96 + 32*axis + 8*i. In all three, for a along x and b along y, the
// factors of the tensor-product kernel that are fixed along z, dab = Dx Wy,
// adb = Wx Dy and wab = Wx Wy, are products of two broadcast weights (so in every
// lane the same product as the Go code's), and the weights and slopes along z, Wz
// and Dz, are broadcast in registers for the whole routine.

// BROADCAST_Z loads Wz[0..3] into Y8-Y11 and Dz[0..3] into Y12-Y15, broadcast.
#define BROADCAST_Z \
	VBROADCASTSD 64(SI), Y8; \
	VBROADCASTSD 72(SI), Y9; \
	VBROADCASTSD 80(SI), Y10; \
	VBROADCASTSD 88(SI), Y11; \
	VBROADCASTSD 160(SI), Y12; \
	VBROADCASTSD 168(SI), Y13; \
	VBROADCASTSD 176(SI), Y14; \
	VBROADCASTSD 184(SI), Y15

// TRANSPOSE3(a, b, c, zero, out0, out1, out2) sets out_k to lane k of a, b and c, with
// a zero fourth lane (zero is a register of zeros): a 3x3 matrix's rows from its
// columns, or its columns from its rows. It overwrites Y0-Y3; the outputs must be
// other registers than the inputs.
#define TRANSPOSE3(a, b, c, zero, out0, out1, out2) \
	VUNPCKLPD b, a, Y0; \
	VUNPCKHPD b, a, Y1; \
	VUNPCKLPD zero, c, Y2; \
	VUNPCKHPD zero, c, Y3; \
	VPERM2F128 $0x20, Y2, Y0, out0; \
	VPERM2F128 $0x20, Y3, Y1, out1; \
	VPERM2F128 $0x31, Y2, Y0, out2

// ROW_SUM(W0, W1, W2, W3, dst) sets dst to ((u0 W0 + u1 W1) + u2 W2) + u3 W3, the Go
// code's left-to-right sum, for the row of four nodes u0..u3 at R8; it overwrites Y1.
#define ROW_SUM(W0, W1, W2, W3, dst) \
	VMULPD 0(R8), W0, dst; \
	VMULPD 32(R8), W1, Y1; \
	VADDPD Y1, dst, dst; \
	VMULPD 64(R8), W2, Y1; \
	VADDPD Y1, dst, dst; \
	VMULPD 96(R8), W3, Y1; \
	VADDPD Y1, dst, dst

// func windowGradientAVX2(first *paddedVec, ker *kernel, grad *linalg.Mat3)
//
// windowGradientGo with the rows of h grad u in lanes: for each (a, b), the sums along
// z Sw = sum_c u_c Wz[c] (Y0) and Sd = sum_c u_c Dz[c] (Y2), then column 0 (g[0], g[3],
// g[6]) += Sw dab in Y4, column 1 += Sw adb in Y5, column 2 += Sd wab in Y6; at the
// end, transposed into rows and stored.
TEXT ·windowGradientAVX2(SB), NOSPLIT, $0-24
	MOVQ first+0(FP), DI
	MOVQ ker+8(FP), SI
	MOVQ grad+16(FP), DX
	BROADCAST_Z
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	XORQ CX, CX // a, along x
gradientA:
	MOVQ DI, R8
	XORQ BX, BX // b, along y
gradientB:
	ROW_SUM(Y8, Y9, Y10, Y11, Y0)   // Sw
	ROW_SUM(Y12, Y13, Y14, Y15, Y2) // Sd
	VBROADCASTSD 96(SI)(CX*8), Y3   // Dx
	VBROADCASTSD 32(SI)(BX*8), Y7   // Wy
	VMULPD Y7, Y3, Y3               // dab
	VMULPD Y3, Y0, Y3
	VADDPD Y3, Y4, Y4
	VBROADCASTSD 0(SI)(CX*8), Y3    // Wx
	VBROADCASTSD 128(SI)(BX*8), Y1  // Dy
	VMULPD Y1, Y3, Y1               // adb
	VMULPD Y1, Y0, Y1
	VADDPD Y1, Y5, Y5
	VMULPD Y7, Y3, Y3               // wab
	VMULPD Y3, Y2, Y3
	VADDPD Y3, Y6, Y6
	ADDQ $256, R8
	INCQ BX
	CMPQ BX, $4
	JLT gradientB
	ADDQ $2048, DI
	INCQ CX
	CMPQ CX, $4
	JLT gradientA
	VXORPD Y7, Y7, Y7
	TRANSPOSE3(Y4, Y5, Y6, Y7, Y8, Y9, Y10)
	VMOVUPD Y8, 0(DX)   // row 0 (and a zero where g[3] goes, written after)
	VMOVUPD Y9, 24(DX)  // row 1 (and a zero where g[6] goes)
	VMOVUPD X10, 48(DX) // row 2 in two stores: g ends there
	VEXTRACTF128 $1, Y10, X10
	VMOVSD X10, 64(DX)
	VZEROUPPER
	RET

// GRADIENT_NODE adds node c's share to the node at off(R8): (P Wz[c] + Q Dz[c]) with
// P in Y0, Q in Y3, W and D the broadcast Wz[c] and Dz[c]; it overwrites Y1 and Y2.
#define GRADIENT_NODE(off, W, D) \
	VMULPD W, Y0, Y1; \
	VMULPD D, Y3, Y2; \
	VADDPD Y2, Y1, Y1; \
	VADDPD off(R8), Y1, Y1; \
	VMOVUPD Y1, off(R8)

// func scatterGradientAVX2(first *paddedVec, ker *kernel, m *linalg.Mat3)
//
// scatterGradientGo with the rows of m in lanes: its columns, transposed from its rows,
// in Y4-Y6; for each (a, b), P = m_col0 dab + m_col1 adb and Q = m_col2 wab, then the
// four nodes along z.
TEXT ·scatterGradientAVX2(SB), NOSPLIT, $0-24
	MOVQ first+0(FP), DI
	MOVQ ker+8(FP), SI
	MOVQ m+16(FP), DX
	VMOVUPD 0(DX), Y8   // row 0 (and m[3], unused)
	VMOVUPD 24(DX), Y9  // row 1 (and m[6])
	VMOVUPD 48(DX), X10 // row 2 in two loads: m ends there
	VMOVSD 64(DX), X11
	VINSERTF128 $1, X11, Y10, Y10
	VXORPD Y11, Y11, Y11
	TRANSPOSE3(Y8, Y9, Y10, Y11, Y4, Y5, Y6)
	BROADCAST_Z
	XORQ CX, CX
scatterGradA:
	MOVQ DI, R8
	XORQ BX, BX
scatterGradB:
	VBROADCASTSD 96(SI)(CX*8), Y0  // Dx
	VBROADCASTSD 32(SI)(BX*8), Y7  // Wy
	VMULPD Y7, Y0, Y0              // dab
	VBROADCASTSD 0(SI)(CX*8), Y3   // Wx
	VBROADCASTSD 128(SI)(BX*8), Y1 // Dy
	VMULPD Y1, Y3, Y1              // adb
	VMULPD Y7, Y3, Y3              // wab
	VMULPD Y0, Y4, Y0
	VMULPD Y1, Y5, Y1
	VADDPD Y1, Y0, Y0              // P
	VMULPD Y3, Y6, Y3              // Q
	GRADIENT_NODE(0, Y8, Y12)
	GRADIENT_NODE(32, Y9, Y13)
	GRADIENT_NODE(64, Y10, Y14)
	GRADIENT_NODE(96, Y11, Y15)
	ADDQ $256, R8
	INCQ BX
	CMPQ BX, $4
	JLT scatterGradB
	ADDQ $2048, DI
	INCQ CX
	CMPQ CX, $4
	JLT scatterGradA
	VZEROUPPER
	RET

// DIAGONAL_NODE adds to the node at off(R8) (alpha WW + beta WD) + gamma DD, with
// alpha, beta, gamma this (a, b)'s at 0, 32 and 64(R9); it overwrites Y0 and Y1.
#define DIAGONAL_NODE(off, WW, WD, DD) \
	VMULPD 0(R9), WW, Y0; \
	VMULPD 32(R9), WD, Y1; \
	VADDPD Y1, Y0, Y0; \
	VMULPD 64(R9), DD, Y1; \
	VADDPD Y1, Y0, Y0; \
	VADDPD off(R8), Y0, Y0; \
	VMOVUPD Y0, off(R8)

// func scatterDiagonalAVX2(first *paddedVec, ker *kernel, q *diagonalCoeffs)
//
// scatterDiagonalGo with component a in lane a, in two passes, for want of registers.
// First, for each (a, b) with x = dab, y = adb, z = wab, its coefficients onto the
// frame (16 records of 96 bytes: alpha, beta and gamma, each a 4-lane vector): alpha = ((q_xx x) x + (2 q_xy x) y) + (q_yy y) y,
// beta = (2 ((q_xz x) + (q_yz y))) z and gamma = (q_zz z) z (doubling, s + s, is
// exact, as 2 s is). Then the nodes, with Wz Wz, Wz Dz and Dz Dz in registers.
TEXT ·scatterDiagonalAVX2(SB), $1536-24
	MOVQ first+0(FP), DI
	MOVQ ker+8(FP), SI
	MOVQ q+16(FP), DX
	MOVQ SP, R9
	XORQ CX, CX
diagCoeffA:
	XORQ BX, BX
diagCoeffB:
	VBROADCASTSD 96(SI)(CX*8), Y0  // Dx
	VBROADCASTSD 32(SI)(BX*8), Y3  // Wy
	VMULPD Y3, Y0, Y0              // x = dab
	VBROADCASTSD 0(SI)(CX*8), Y2   // Wx
	VBROADCASTSD 128(SI)(BX*8), Y1 // Dy
	VMULPD Y1, Y2, Y1              // y = adb
	VMULPD Y3, Y2, Y2              // z = wab
	VMULPD 0(DX), Y0, Y4           // alpha
	VMULPD Y0, Y4, Y4
	VMULPD 96(DX), Y0, Y5
	VMULPD Y1, Y5, Y5
	VADDPD Y5, Y4, Y4
	VMULPD 32(DX), Y1, Y5
	VMULPD Y1, Y5, Y5
	VADDPD Y5, Y4, Y4
	VMOVUPD Y4, 0(R9)
	VMULPD 128(DX), Y0, Y4         // beta
	VMULPD 160(DX), Y1, Y5
	VADDPD Y5, Y4, Y4
	VADDPD Y4, Y4, Y4
	VMULPD Y2, Y4, Y4
	VMOVUPD Y4, 32(R9)
	VMULPD 64(DX), Y2, Y4          // gamma
	VMULPD Y2, Y4, Y4
	VMOVUPD Y4, 64(R9)
	ADDQ $96, R9
	INCQ BX
	CMPQ BX, $4
	JLT diagCoeffB
	INCQ CX
	CMPQ CX, $4
	JLT diagCoeffA

	VBROADCASTSD 64(SI), Y4 // Wz
	VBROADCASTSD 72(SI), Y5
	VBROADCASTSD 80(SI), Y6
	VBROADCASTSD 88(SI), Y7
	VBROADCASTSD 160(SI), Y8 // Dz
	VBROADCASTSD 168(SI), Y9
	VBROADCASTSD 176(SI), Y10
	VBROADCASTSD 184(SI), Y11
	VMULPD Y8, Y4, Y12 // Wz Dz
	VMULPD Y9, Y5, Y13
	VMULPD Y10, Y6, Y14
	VMULPD Y11, Y7, Y15
	VMULPD Y4, Y4, Y4 // Wz Wz
	VMULPD Y5, Y5, Y5
	VMULPD Y6, Y6, Y6
	VMULPD Y7, Y7, Y7
	VMULPD Y8, Y8, Y8 // Dz Dz
	VMULPD Y9, Y9, Y9
	VMULPD Y10, Y10, Y10
	VMULPD Y11, Y11, Y11
	MOVQ SP, R9
	XORQ CX, CX
diagNodeA:
	MOVQ DI, R8
	XORQ BX, BX
diagNodeB:
	DIAGONAL_NODE(0, Y4, Y12, Y8)
	DIAGONAL_NODE(32, Y5, Y13, Y9)
	DIAGONAL_NODE(64, Y6, Y14, Y10)
	DIAGONAL_NODE(96, Y7, Y15, Y11)
	ADDQ $96, R9
	ADDQ $256, R8
	INCQ BX
	CMPQ BX, $4
	JLT diagNodeB
	ADDQ $2048, DI
	INCQ CX
	CMPQ CX, $4
	JLT diagNodeA
	VZEROUPPER
	RET
