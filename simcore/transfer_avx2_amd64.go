package simcore

import (
	"unsafe"

	"snowtools/levelset/geom"
	"snowtools/simcore/linalg"
)

// The explicit step's hot loops in AVX2 (transfer_avx2_amd64.s), used when the CPU has
// it: Go emits no vector instructions, and the scatter and the gather, which add and
// sum 64 nodes' values per particle, were half of the step. In AVX2 are the scatter
// (scatterParticle), the gather (interpolate), the kernel's weights (kernelAt) and,
// for stage 7, F^_E (trialElastic) and the Newton steps to R_E (nearRotation). Each
// vector lane does the very operations, in the very order, of the Go code it replaces,
// with no fused multiply-add, so both give the same bits (the tests
// Test*AVX2SameBits) and, at the default GOAMD64 (v1, v2), a binary's results do not
// depend on whether the CPU has AVX2. (The Go specification lets the compiler fuse
// x*y + z, and it does on arm64 and at GOAMD64=v3 and above; a v3 binary needs AVX2
// anyway, so it always runs these loops, and the tests skip there.)

// The layouts that transfer_avx2_amd64.s assumes: each pair of array types fails to
// compile unless the two sizes or offsets are equal. The assembly has no bounds
// checks: it reaches 4x4x4 nodes from the stencil's first node with the strides of an
// 8x8x8 window (row 512 bytes, plane 4096 for node; 384 and 3072 for nodeVelocity), and
// the callers pass that first node at offsets masked to blockWidth-1 = 3, so that
// 3 + 3 < windowWidth keeps every access inside the window.
type (
	_ [windowWidth - 8]byte
	_ [8 - windowWidth]byte
	_ [blockWidth - 4]byte
	_ [4 - blockWidth]byte
	_ [unsafe.Sizeof(node{}) - 64]byte
	_ [64 - unsafe.Sizeof(node{})]byte
	_ [unsafe.Offsetof(node{}.force) - 32]byte
	_ [32 - unsafe.Offsetof(node{}.force)]byte
	_ [unsafe.Sizeof(nodeVelocity{}) - 48]byte
	_ [48 - unsafe.Sizeof(nodeVelocity{})]byte
	_ [unsafe.Offsetof(kernel{}.D) - 96]byte
	_ [96 - unsafe.Offsetof(kernel{}.D)]byte
)

// useAVX2 says whether the transfers run their AVX2 loops: the CPU has AVX2 and the
// operating system saves its registers. Tests turn it off to compare the two.
var useAVX2 = hasAVX2()

// hasAVX2 asks the CPU (CPUID leaves 1 and 7) and the operating system (XCR0: SSE and
// AVX state saved) whether AVX2 instructions can run.
func hasAVX2() bool {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	const osxsave, avx = 1 << 27, 1 << 28
	if _, _, ecx, _ := cpuid(1, 0); ecx&osxsave == 0 || ecx&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	const avx2 = 1 << 5
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&avx2 != 0
}

// cpuid executes CPUID with the given EAX and ECX.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns XCR0 (XGETBV with ECX = 0).
func xgetbv() (eax, edx uint32)

// scatterCoeffs is what scatterRowsAVX2 needs of a particle besides its kernel, as
// lanes: mass = (m, m v), and the columns of -S/h (S = V_p^n sigma_p, symmetric) that
// make the force rows of scatterParticle, P = dab s0 + adb s1 and Q = wab s2, with a
// zero fourth lane.
type scatterCoeffs struct {
	mass, s0, s1, s2 [4]float64
}

// scatterRowsAVX2 is scatterParticleGo's loop over the stencil: first is the stencil's
// first node in the window.
//
//go:noescape
func scatterRowsAVX2(first *node, ker *kernel, c *scatterCoeffs)

// kernelAVX2 is kernelAtGo with the axes in vector lanes: it sets k and returns the
// stencil's first node.
//
//go:noescape
func kernelAVX2(x *geom.Vec3, invH float64, k *kernel) (bx, by, bz int)

// nearRotationAVX2 is nearRotationGo with the rows of the matrices in vector lanes.
//
//go:noescape
func nearRotationAVX2(r, f *linalg.Mat3)

// trialElasticAVX2 is trialElasticGo with the rows of the matrices in vector lanes.
//
//go:noescape
func trialElasticAVX2(f *linalg.Mat3, fe *Mat3f, gradV *linalg.Mat3, dt float64)

// gatherSums is what interpolateAVX2 returns, four lanes at a time:
// [0:4] (v_PIC, dv_x), [4:6] (dv_y, dv_z), [8:11] column 0 of h grad v,
// [12:15] column 1, [16:19] column 2 (the lanes in between are scratch).
type gatherSums [20]float64

// interpolateAVX2 is interpolateGo's three passes: first is the stencil's first node in
// the window.
//
//go:noescape
func interpolateAVX2(first *nodeVelocity, ker *kernel, out *gatherSums)
