//go:build !amd64

package simcore

import (
	"snowtools/levelset/geom"
	"snowtools/simcore/linalg"
)

// Elsewhere than on amd64 the transfers run their Go loops only.
const useAVX2 = false

type scatterCoeffs struct {
	mass, s0, s1, s2 [4]float64
}

type gatherSums [20]float64

func scatterRowsAVX2(first *node, ker *kernel, c *scatterCoeffs) { panic("no AVX2") }

func interpolateAVX2(first *nodeVelocity, ker *kernel, out *gatherSums) { panic("no AVX2") }

func kernelAVX2(x *geom.Vec3, invH float64, k *kernel) (bx, by, bz int) { panic("no AVX2") }

func nearRotationAVX2(r, f *linalg.Mat3) { panic("no AVX2") }

func trialElasticAVX2(f *linalg.Mat3, fe *Mat3f, gradV *linalg.Mat3, dt float64) { panic("no AVX2") }
