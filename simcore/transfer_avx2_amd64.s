#include "textflag.h"

// The transfers' inner loops in AVX2 (see transfer_avx2_amd64.go). Every lane does what
// the Go loop does for one value, in the same order, with no fused multiply-add. Each
// routine's reference, which says the math and which the tests Test*AVX2SameBits
// compare it with to the bit, is a Go function:
//
//	scatterRowsAVX2    scatterParticleGo (transfer.go): stages 1 and 3, m w, m v w and
//	                   -V sigma grad w added to the stencil's 64 nodes
//	interpolateAVX2    interpolateGo (transfer.go): stages 7 and 8, v_PIC, dv and
//	                   h grad v summed over the 64 nodes, z, then y, then x
//	kernelAVX2         kernelAtGo and axisKernel (bspline.go): the cubic B-spline's
//	                   weights and slopes on each axis, and the first node
//	nearRotationAVX2   nearRotationGo (deformation.go): three Newton steps
//	                   R = (R + R^-T) / 2 towards the rotation of F^_E
//	trialElasticAVX2   trialElasticGo (deformation.go): F^_E = (I + dt grad v) F_E
//
// cpuid and xgetbv serve hasAVX2 (transfer_avx2_amd64.go), which decides useAVX2.
// Window strides: a node is 64 bytes (mass, momentum, force, pad), a row of 8 along z
// 512, a plane 4096; a nodeVelocity is 48 bytes (v, dv), 384 per row, 3072 per plane.
// kernel: W[axis][i] at 32*axis + 8*i, D[axis][i] at 96 + 32*axis + 8*i.

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// SCATTER_NODE adds node c's share to the node at off(R8): Y5 = (m, m v) wab,
// Y6 = P, Y7 = Q; W and D are the node's broadcast weight and slope along z.
// mass, momentum += Y5 W; force (and the pad after it) += P W + Q D.
#define SCATTER_NODE(off, W, D) \
	VMULPD W, Y5, Y0; \
	VADDPD off(R8), Y0, Y0; \
	VMOVUPD Y0, off(R8); \
	VMULPD W, Y6, Y0; \
	VMULPD D, Y7, Y1; \
	VADDPD Y1, Y0, Y0; \
	VADDPD off+32(R8), Y0, Y0; \
	VMOVUPD Y0, off+32(R8)

// func scatterRowsAVX2(first *node, ker *kernel, c *scatterCoeffs)
//
// scatterParticleGo's loop over the stencil, for a along x and b along y: wab = Wx Wy,
// dab = Dx Wy, adb = Wx Dy from scalars, then the four nodes along z at once, their
// Wz and Dz broadcast in Y8-Y15 for the whole routine.
TEXT ·scatterRowsAVX2(SB), NOSPLIT, $0-24
	MOVQ first+0(FP), DI
	MOVQ ker+8(FP), SI
	MOVQ c+16(FP), DX
	VBROADCASTSD 64(SI), Y8 // W[2][0..3]
	VBROADCASTSD 72(SI), Y9
	VBROADCASTSD 80(SI), Y10
	VBROADCASTSD 88(SI), Y11
	VBROADCASTSD 160(SI), Y12 // D[2][0..3]
	VBROADCASTSD 168(SI), Y13
	VBROADCASTSD 176(SI), Y14
	VBROADCASTSD 184(SI), Y15
	XORQ CX, CX // a, along x
scatterA:
	VMOVSD 0(SI)(CX*8), X3   // wa = W[0][a]
	VMOVSD 96(SI)(CX*8), X4  // da = D[0][a]
	MOVQ DI, R8
	XORQ BX, BX // b, along y
scatterB:
	VMULSD 32(SI)(BX*8), X3, X0  // wab = wa W[1][b]
	VMULSD 32(SI)(BX*8), X4, X1  // dab = da W[1][b]
	VMULSD 128(SI)(BX*8), X3, X2 // adb = wa D[1][b]
	VBROADCASTSD X0, Y0
	VBROADCASTSD X1, Y1
	VBROADCASTSD X2, Y2
	VMULPD 0(DX), Y0, Y5  // (m, m v) wab
	VMULPD 32(DX), Y1, Y6 // P = s0 dab + s1 adb
	VMULPD 64(DX), Y2, Y7
	VADDPD Y7, Y6, Y6
	VMULPD 96(DX), Y0, Y7 // Q = s2 wab
	SCATTER_NODE(0, Y8, Y12)
	SCATTER_NODE(64, Y9, Y13)
	SCATTER_NODE(128, Y10, Y14)
	SCATTER_NODE(192, Y11, Y15)
	ADDQ $512, R8
	INCQ BX
	CMPQ BX, $4
	JLT scatterB
	ADDQ $4096, DI
	INCQ CX
	CMPQ CX, $4
	JLT scatterA
	VZEROUPPER
	RET

// DOT4(a, b, c, d, W0, W1, W2, W3, dst, tmp) sets dst to
// (W0 a + W1 b) + (W2 c + W3 d), as dot4 does, lane by lane; a, b, c, d are registers
// or memory, the W registers.
#define DOT4(a, b, c, d, W0, W1, W2, W3, dst, tmp) \
	VMULPD a, W0, dst; \
	VMULPD b, W1, tmp; \
	VADDPD tmp, dst, dst; \
	VMULPD c, W2, tmp; \
	VMULPD d, W3, Y7; \
	VADDPD Y7, tmp, tmp; \
	VADDPD tmp, dst, dst

// The same on the low two lanes.
#define DOT4X(a, b, c, d, W0, W1, W2, W3, dst, tmp) \
	VMULPD a, W0, dst; \
	VMULPD b, W1, tmp; \
	VADDPD tmp, dst, dst; \
	VMULPD c, W2, tmp; \
	VMULPD d, W3, X7; \
	VADDPD X7, tmp, tmp; \
	VADDPD tmp, dst, dst

// BROADCAST_AXIS loads the weights W[axis] into Y8-Y11 and the slopes D[axis] into
// Y12-Y15, broadcast.
#define BROADCAST_AXIS(w) \
	VBROADCASTSD w(SI), Y8; \
	VBROADCASTSD w+8(SI), Y9; \
	VBROADCASTSD w+16(SI), Y10; \
	VBROADCASTSD w+24(SI), Y11; \
	VBROADCASTSD w+96(SI), Y12; \
	VBROADCASTSD w+104(SI), Y13; \
	VBROADCASTSD w+112(SI), Y14; \
	VBROADCASTSD w+120(SI), Y15

// func interpolateAVX2(first *nodeVelocity, ker *kernel, out *gatherSums)
//
// interpolateGo's three passes, sums along z, then y, then x, each dot4's order.
// The frame holds the sums along z, 16 rows of 96 bytes at 0(SP): [0:4] W.(v, dv_x),
// [4:6] W.(dv_y, dv_z), [8:12] D.(v, dv_x); then the sums along y, 4 of 128 bytes at
// 1536(SP): [0:4] W W.(v, dv_x), [4:6] W W.(dv_y, dv_z), [8:12] D W.(v, dv_x),
// [12:16] W D.(v, dv_x).
TEXT ·interpolateAVX2(SB), $2048-24
	MOVQ first+0(FP), DI
	MOVQ ker+8(FP), SI
	MOVQ out+16(FP), DX

	// Along z: each of the 16 rows of 4 nodes.
	BROADCAST_AXIS(64)
	MOVQ SP, R9 // this row's sums
	XORQ CX, CX
gatherZA:
	MOVQ DI, R8
	XORQ BX, BX
gatherZB:
	VMOVUPD 0(R8), Y0 // (v, dv_x) of the four nodes
	VMOVUPD 48(R8), Y1
	VMOVUPD 96(R8), Y2
	VMOVUPD 144(R8), Y3
	DOT4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11, Y4, Y5)
	VMOVUPD Y4, 0(R9)
	DOT4(Y0, Y1, Y2, Y3, Y12, Y13, Y14, Y15, Y4, Y5)
	VMOVUPD Y4, 64(R9)
	DOT4X(32(R8), 80(R8), 128(R8), 176(R8), X8, X9, X10, X11, X4, X5)
	VMOVUPD X4, 32(R9)
	ADDQ $96, R9
	ADDQ $384, R8
	INCQ BX
	CMPQ BX, $4
	JLT gatherZB
	ADDQ $3072, DI
	INCQ CX
	CMPQ CX, $4
	JLT gatherZA

	// Along y: for each a, its four rows of sums along z.
	BROADCAST_AXIS(32)
	MOVQ SP, R8
	LEAQ 1536(SP), R9
	XORQ CX, CX
gatherY:
	VMOVUPD 0(R8), Y0
	VMOVUPD 96(R8), Y1
	VMOVUPD 192(R8), Y2
	VMOVUPD 288(R8), Y3
	DOT4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11, Y4, Y5)
	VMOVUPD Y4, 0(R9)
	DOT4(Y0, Y1, Y2, Y3, Y12, Y13, Y14, Y15, Y4, Y5)
	VMOVUPD Y4, 64(R9)
	DOT4X(32(R8), 128(R8), 224(R8), 320(R8), X8, X9, X10, X11, X4, X5)
	VMOVUPD X4, 32(R9)
	DOT4(64(R8), 160(R8), 256(R8), 352(R8), Y8, Y9, Y10, Y11, Y4, Y5)
	VMOVUPD Y4, 96(R9)
	ADDQ $384, R8
	ADDQ $128, R9
	INCQ CX
	CMPQ CX, $4
	JLT gatherY

	// Along x: the four sums along y.
	BROADCAST_AXIS(0)
	LEAQ 1536(SP), R8
	VMOVUPD 0(R8), Y0
	VMOVUPD 128(R8), Y1
	VMOVUPD 256(R8), Y2
	VMOVUPD 384(R8), Y3
	DOT4(Y0, Y1, Y2, Y3, Y8, Y9, Y10, Y11, Y4, Y5)
	VMOVUPD Y4, 0(DX) // v_PIC, dv_x
	DOT4(Y0, Y1, Y2, Y3, Y12, Y13, Y14, Y15, Y4, Y5)
	VMOVUPD Y4, 64(DX) // column 0 of h grad v
	DOT4X(32(R8), 160(R8), 288(R8), 416(R8), X8, X9, X10, X11, X4, X5)
	VMOVUPD X4, 32(DX) // dv_y, dv_z
	DOT4(64(R8), 192(R8), 320(R8), 448(R8), Y8, Y9, Y10, Y11, Y4, Y5)
	VMOVUPD Y4, 96(DX) // column 1
	DOT4(96(R8), 224(R8), 352(R8), 480(R8), Y8, Y9, Y10, Y11, Y4, Y5)
	VMOVUPD Y4, 128(DX) // column 2
	VZEROUPPER
	RET

// Constants of the kernel's pieces (bspline.go's stencil1D), as float64 bits.
DATA kernelConst<>+0(SB)/8, $0x3FF0000000000000  // 1
DATA kernelConst<>+8(SB)/8, $0x4018000000000000  // 6
DATA kernelConst<>+16(SB)/8, $0x3FE0000000000000 // 0.5
DATA kernelConst<>+24(SB)/8, $0x3FE5555555555555 // 2.0/3
DATA kernelConst<>+32(SB)/8, $0xBFE0000000000000 // -0.5
DATA kernelConst<>+40(SB)/8, $0x3FF8000000000000 // 1.5
DATA kernelConst<>+48(SB)/8, $0x4000000000000000 // 2
DATA kernelConst<>+56(SB)/8, $0xBFF8000000000000 // -1.5
DATA kernelConst<>+64(SB)/8, $0x8000000000000000 // the sign bit
GLOBL kernelConst<>(SB), RODATA|NOPTR, $72

// TRANSPOSE(a, b, c, d, out) stores the rows of the 4x4 matrix whose columns are a, b, c
// and d (lanes x, y, z, unused) at out, 32 bytes a row, three rows: row k is lane k of
// a, b, c, d. It overwrites Y0-Y3.
#define TRANSPOSE(a, b, c, d, out) \
	VUNPCKLPD b, a, Y0; \
	VUNPCKHPD b, a, Y1; \
	VUNPCKLPD d, c, Y2; \
	VUNPCKHPD d, c, Y3; \
	VPERM2F128 $0x20, Y2, Y0, a; \
	VMOVUPD a, out(DI); \
	VPERM2F128 $0x20, Y3, Y1, a; \
	VMOVUPD a, out+32(DI); \
	VPERM2F128 $0x31, Y2, Y0, a; \
	VMOVUPD a, out+64(DI)

// ROUND32 rounds the four lanes of r to float32 and back, as float64(float32(x)).
#define ROUND32(r) \
	VCVTPD2PSY r, X0; \
	VCVTPS2PD X0, r

// func kernelAVX2(x *geom.Vec3, invH float64, k *kernel) (bx, by, bz int)
//
// kernelAtGo with the three axes in three lanes: axisKernel's operations in its order.
TEXT ·kernelAVX2(SB), NOSPLIT, $0-48
	MOVQ x+0(FP), AX
	MOVQ k+16(FP), DI
	LEAQ kernelConst<>(SB), SI
	VMOVUPD 0(AX), X0
	VMOVSD 16(AX), X1
	VINSERTF128 $1, X1, Y0, Y0        // (x, y, z, 0)
	VBROADCASTSD invH+8(FP), Y1
	VMULPD Y1, Y0, Y0                 // X = x invH
	VROUNDPD $1, Y0, Y2               // floor(X)
	VCVTTSD2SIQ X2, AX                 // the first nodes, int(floor(X)) - 1
	DECQ AX
	MOVQ AX, bx+24(FP)
	VPERMILPD $1, X2, X1
	VCVTTSD2SIQ X1, AX
	DECQ AX
	MOVQ AX, by+32(FP)
	VEXTRACTF128 $1, Y2, X1
	VCVTTSD2SIQ X1, AX
	DECQ AX
	MOVQ AX, bz+40(FP)
	VSUBPD Y2, Y0, Y3                 // f = X - floor(X)
	VBROADCASTSD 0(SI), Y1
	VSUBPD Y3, Y1, Y4                 // g = 1 - f
	VMULPD Y3, Y3, Y5                 // f f
	VMULPD Y4, Y4, Y6                 // g g
	VBROADCASTSD 8(SI), Y1
	VMULPD Y4, Y6, Y7                 // w0 = g g g / 6
	VDIVPD Y1, Y7, Y7
	VMULPD Y3, Y5, Y10                // w3 = f f f / 6
	VDIVPD Y1, Y10, Y10
	VBROADCASTSD 16(SI), Y1
	VBROADCASTSD 24(SI), Y15
	VMULPD Y1, Y3, Y14                // 0.5 f
	VMULPD Y3, Y14, Y8                // w1 = 0.5 f f f - f f + 2/3
	VMULPD Y3, Y8, Y8
	VSUBPD Y5, Y8, Y8
	VADDPD Y15, Y8, Y8
	VMULPD Y3, Y14, Y14               // d3 = 0.5 f f
	VMULPD Y1, Y4, Y9                 // w2 = 0.5 g g g - g g + 2/3
	VMULPD Y4, Y9, Y9
	VMULPD Y4, Y9, Y9
	VSUBPD Y6, Y9, Y9
	VADDPD Y15, Y9, Y9
	VBROADCASTSD 32(SI), Y1
	VMULPD Y1, Y4, Y11                // d0 = -0.5 g g
	VMULPD Y4, Y11, Y11
	VBROADCASTSD 48(SI), Y15
	VBROADCASTSD 40(SI), Y1
	VMULPD Y1, Y3, Y12                // d1 = 1.5 f f - 2 f
	VMULPD Y3, Y12, Y12
	VMULPD Y15, Y3, Y0
	VSUBPD Y0, Y12, Y12
	VBROADCASTSD 56(SI), Y1
	VMULPD Y1, Y4, Y13                // d2 = -1.5 g g + 2 g
	VMULPD Y4, Y13, Y13
	VMULPD Y15, Y4, Y0
	VADDPD Y0, Y13, Y13
	// axisKernel: round w0, w2, w3, d0, d2, d3 to float32; w1 and d1 from the
	// partition of unity, w1 = 1 - w0 - w2 - w3 and d1 = -d0 - d2 - d3.
	ROUND32(Y7)
	ROUND32(Y9)
	ROUND32(Y10)
	ROUND32(Y11)
	ROUND32(Y13)
	ROUND32(Y14)
	VBROADCASTSD 0(SI), Y8
	VSUBPD Y7, Y8, Y8
	VSUBPD Y9, Y8, Y8
	VSUBPD Y10, Y8, Y8
	VBROADCASTSD 64(SI), Y12
	VXORPD Y12, Y11, Y12
	VSUBPD Y13, Y12, Y12
	VSUBPD Y14, Y12, Y12
	TRANSPOSE(Y7, Y8, Y9, Y10, 0)
	TRANSPOSE(Y11, Y12, Y13, Y14, 96)
	VZEROUPPER
	RET

// CROSS(a, b, ayzx, azxy, byzx, bzxy, dst, tmp) sets dst to the cross product a x b
// from the rotated copies of its operands: a.yzx b.zxy - a.zxy b.yzx, lane by lane
// (a and b are unused; they name what the copies are of).
#define CROSS(ayzx, azxy, byzx, bzxy, dst, tmp) \
	VMULPD bzxy, ayzx, dst; \
	VMULPD byzx, azxy, tmp; \
	VSUBPD tmp, dst, dst

// func nearRotationAVX2(r, f *linalg.Mat3)
//
// nearRotationGo with the rows of r in three vectors (x, y, z and a lane of scratch): the
// rows of the cofactor matrix are cross products of two rows, row 1 x row 2 for row 0
// and so on, and lane by lane they are nearRotation's differences of products, the
// same bits. Y0-Y2 hold the rows, Y3-Y8 their rotated copies (yzx, zxy), Y9-Y11 the
// cofactor rows.
TEXT ·nearRotationAVX2(SB), NOSPLIT, $0-16
	MOVQ r+0(FP), DI
	MOVQ f+8(FP), SI
	VMOVUPD 0(SI), Y0   // row 0 (and f[3], unused)
	VMOVUPD 24(SI), Y1  // row 1 (and f[6])
	VMOVUPD 48(SI), X2  // row 2, in two loads: f ends there
	VMOVSD 64(SI), X3
	VINSERTF128 $1, X3, Y2, Y2
	LEAQ kernelConst<>(SB), SI
	VBROADCASTSD 16(SI), Y15 // 0.5
	MOVQ $3, CX
nearRotationStep:
	VPERMPD $0xC9, Y0, Y3 // yzx
	VPERMPD $0xD2, Y0, Y4 // zxy
	VPERMPD $0xC9, Y1, Y5
	VPERMPD $0xD2, Y1, Y6
	VPERMPD $0xC9, Y2, Y7
	VPERMPD $0xD2, Y2, Y8
	CROSS(Y5, Y6, Y7, Y8, Y9, Y12)  // c0 c1 c2: row 1 x row 2
	CROSS(Y7, Y8, Y3, Y4, Y10, Y12) // c3 c4 c5: row 2 x row 0
	CROSS(Y3, Y4, Y5, Y6, Y11, Y12) // c6 c7 c8: row 0 x row 1
	// k = 0.5 / (r0 c0 + r1 c1 + r2 c2), summed left to right.
	VMULPD Y9, Y0, Y12
	VPERMILPD $1, X12, X13
	VADDSD X13, X12, X13
	VEXTRACTF128 $1, Y12, X14
	VADDSD X14, X13, X13
	VDIVSD X13, X15, X13
	VBROADCASTSD X13, Y13
	// r = 0.5 r + k c, row by row.
	VMULPD Y15, Y0, Y0
	VMULPD Y13, Y9, Y9
	VADDPD Y9, Y0, Y0
	VMULPD Y15, Y1, Y1
	VMULPD Y13, Y10, Y10
	VADDPD Y10, Y1, Y1
	VMULPD Y15, Y2, Y2
	VMULPD Y13, Y11, Y11
	VADDPD Y11, Y2, Y2
	DECQ CX
	JNZ nearRotationStep
	VMOVUPD Y0, 0(DI) // rows 0 and 1 (each spilling into the next, written after)
	VMOVUPD Y1, 24(DI)
	VMOVUPD X2, 48(DI)
	VEXTRACTF128 $1, Y2, X3
	VMOVSD X3, 64(DI)
	VZEROUPPER
	RET

// func trialElasticAVX2(f *linalg.Mat3, fe *Mat3f, gradV *linalg.Mat3, dt float64)
//
// trialElasticGo with the rows in vector lanes: row r of F^_E is row r of F_E plus
// dt ((g_r0 row 0 + g_r1 row 1) + g_r2 row 2) of F_E, g = grad v, lane by lane
// trialElasticGo's operations.
TEXT ·trialElasticAVX2(SB), NOSPLIT, $0-32
	MOVQ f+0(FP), DI
	MOVQ fe+8(FP), SI
	MOVQ gradV+16(FP), DX
	VCVTPS2PD 0(SI), Y0  // row 0 of F_E (and fe[3], unused)
	VCVTPS2PD 12(SI), Y1 // row 1 (and fe[6])
	VCVTPS2PD 20(SI), Y2 // fe[5:9]: F_E ends there
	VPERMPD $0x39, Y2, Y2 // row 2 (and fe[5])
	VBROADCASTSD dt+24(FP), Y15
#define TRIAL_ROW(g, row, dst) \
	VBROADCASTSD g(DX), Y3; \
	VBROADCASTSD g+8(DX), Y4; \
	VBROADCASTSD g+16(DX), Y5; \
	VMULPD Y0, Y3, Y3; \
	VMULPD Y1, Y4, Y4; \
	VADDPD Y4, Y3, Y3; \
	VMULPD Y2, Y5, Y5; \
	VADDPD Y5, Y3, Y3; \
	VMULPD Y3, Y15, Y3; \
	VADDPD Y3, row, dst
	TRIAL_ROW(0, Y0, Y6)
	TRIAL_ROW(24, Y1, Y7)
	TRIAL_ROW(48, Y2, Y8)
	VMOVUPD Y6, 0(DI) // rows 0 and 1 (each spilling into the next, written after)
	VMOVUPD Y7, 24(DI)
	VMOVUPD X8, 48(DI)
	VEXTRACTF128 $1, Y8, X8
	VMOVSD X8, 64(DI)
	VZEROUPPER
	RET
