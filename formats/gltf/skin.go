package gltf

import (
	"fmt"

	qgltf "github.com/qmuntal/gltf"
)

// skin is a decoded glTF skin: its joint nodes and their inverse bind matrices.
type skin struct {
	joints []int32
	ibm    []mat4
	off    int // first of its joint matrices in pose.joints
}

// loadSkin decodes skins[i]. inverseBindMatrices is a MAT4 FLOAT accessor with one
// matrix per joint, identity when absent.
func (l *loader) loadSkin(s *Scene, i int) (int, error) {
	if k, ok := l.skins[i]; ok {
		return k, nil
	}
	where := fmt.Sprintf("skins[%d]", i)
	gs := l.doc.Skins[i]
	if gs == nil {
		return 0, errorf(l.file, where, "null skin")
	}
	sk := skin{joints: make([]int32, len(gs.Joints)), ibm: make([]mat4, len(gs.Joints))}
	for k, j := range gs.Joints {
		if j < 0 || j >= len(s.nodes) {
			return 0, errorf(l.file, fmt.Sprintf("%s.joints[%d]", where, k), "node %d does not exist (the file has %d)", j, len(s.nodes))
		}
		sk.joints[k] = int32(j)
		sk.ibm[k] = identity
	}
	if gs.InverseBindMatrices != nil {
		m, err := l.read(*gs.InverseBindMatrices, where+".inverseBindMatrices", qgltf.AccessorMat4, compFloat)
		if err != nil {
			return 0, err
		}
		if len(m) < 16*len(sk.joints) {
			return 0, errorf(l.file, where+".inverseBindMatrices", "%d matrices for %d joints", len(m)/16, len(sk.joints))
		}
		for k := range sk.ibm {
			sk.ibm[k] = mat4(m[16*k : 16*k+16])
		}
	}
	sk.off = s.nJoints
	s.nJoints += len(sk.joints)
	s.skins = append(s.skins, sk)
	l.skins[i] = len(s.skins) - 1
	return len(s.skins) - 1, nil
}
