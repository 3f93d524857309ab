package scene

import (
	"fmt"
	"math"

	"snowtools/cmd/internal/seq"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// colliders loads the [[collider]] tables, for a solver of grid spacing h: each an
// analytic shape, still, moving at a velocity or on keys; a mesh voxelized on load
// or a VDB level set, still or on keys; or a VDB sequence written by voxelize (a
// path with a frame placeholder), which deforms and is also one of the sequences.
// Each comes with its body, for pictures.
func (l *loader) colliders(tables []colliderKeys, h float64) ([]ColliderBody, []*collider.Sequence, error) {
	var bodies []ColliderBody
	var seqs []*collider.Sequence
	for i := range tables {
		ck := &tables[i]
		key := fmt.Sprintf("collider[%d]", i+1)
		contact, err := ck.contact(key)
		if err != nil {
			return nil, nil, err
		}
		if ck.isSequence() {
			s, err := l.sequence(ck, key, contact)
			if err != nil {
				return nil, nil, err
			}
			bodies, seqs = append(bodies, ColliderBody{Key: key, Sequence: s, Collider: s.Collider}), append(seqs, s)
			continue
		}
		body, err := l.collider(ck, key, contact, h)
		if err != nil {
			return nil, nil, err
		}
		bodies = append(bodies, body)
	}
	return bodies, seqs, nil
}

// contact reads how the collider treats snow, and checks the keys that exclude
// each other.
func (ck *colliderKeys) contact(key string) (collider.Surface, error) {
	c := collider.Surface{Mode: collider.Separate, Friction: 0.2}
	if err := friction(&c.Friction, ck.Friction, key+".friction"); err != nil {
		return c, err
	}
	if err := contactMode(&c.Mode, ck.Mode, key+".mode"); err != nil {
		return c, err
	}
	if ck.Velocity != nil && len(ck.Keys) > 0 {
		return c, keyError(key, "give velocity or [[%s.key]], not both", key)
	}
	if (ck.FPS != nil || ck.Start != nil) && ck.Shape != "vdb" {
		return c, keyError(key, "fps and start are for a \"vdb\" sequence")
	}
	if ck.Shape != "mesh" {
		if err := ck.meshKeysOnly(key); err != nil {
			return c, err
		}
	}
	return c, nil
}

// isSequence reports whether the collider is a VDB sequence: a path with a frame
// placeholder.
func (ck *colliderKeys) isSequence() bool {
	if ck.Shape != "vdb" || ck.Path == nil {
		return false
	}
	_, ok, _ := seq.ParsePattern(*ck.Path)
	return ok
}

// collider loads a collider that is one shape, still, moving or on keys.
func (l *loader) collider(ck *colliderKeys, key string, contact collider.Surface, h float64) (ColliderBody, error) {
	cb := ColliderBody{Key: key}
	var body geom.Shape
	var err error
	switch ck.Shape {
	case "vdb":
		var grid *levelset.GridShape
		if grid, err = l.vdbCollider(&ck.shapeKeys, key); err == nil {
			body, cb.LevelSet = grid, grid.Grid()
		}
	case "mesh":
		body, cb.Mesh, err = l.meshCollider(&ck.shapeKeys, key, h)
	default:
		body, _, err = ck.analytic(key)
		cb.Shape = body
	}
	if err != nil {
		return cb, err
	}
	if len(ck.Keys) == 0 {
		col := &collider.MovingShape{Shape: body, Contact: contact}
		if ck.Velocity != nil {
			if col.Velocity = *ck.Velocity; !col.Velocity.IsFinite() {
				return cb, keyError(key+".velocity", "%v: must be finite", col.Velocity)
			}
		}
		cb.Collider = col
		return cb, nil
	}
	trans, rot, err := ck.rigidKeys(key)
	if err != nil {
		return cb, err
	}
	if cb.Collider, err = collider.NewRigidBody(body, trans, rot, contact); err != nil {
		return cb, keyError(key, "%v", err)
	}
	return cb, nil
}

// rigidKeys reads the [[collider.key]] tables: times in increasing order, each with
// a translation, a rotation, or both.
func (ck *colliderKeys) rigidKeys(key string) ([]collider.TranslationKey, []collider.RotationKey, error) {
	var trans []collider.TranslationKey
	var rot []collider.RotationKey
	for i, k := range ck.Keys {
		kk := fmt.Sprintf("%s.key[%d]", key, i+1)
		if k.Time == nil {
			return nil, nil, keyError(kk+".time", "required")
		}
		if k.Translation == nil && k.Rotation == nil && k.Axis == nil {
			return nil, nil, keyError(kk, "give a translation, a rotation (x, y, z, w) or an axis and angle")
		}
		if k.Translation != nil {
			trans = append(trans, collider.TranslationKey{T: *k.Time, P: *k.Translation})
		}
		q, ok, err := k.rotation(kk)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			rot = append(rot, collider.RotationKey{T: *k.Time, Q: q})
		}
	}
	return trans, rot, nil
}

// rotation returns a key's rotation, if it has one: a quaternion, or an axis and an
// angle in degrees.
func (k *keyKeys) rotation(key string) (collider.Quat, bool, error) {
	switch {
	case k.Rotation != nil && k.Axis != nil:
		return collider.Quat{}, false, keyError(key, "give rotation or axis and angle, not both")
	case k.Rotation != nil:
		q := *k.Rotation
		return collider.Quat{W: q[3], X: q[0], Y: q[1], Z: q[2]}, true, nil
	case k.Axis != nil:
		if k.Angle == nil {
			return collider.Quat{}, false, keyError(key+".angle", "required with axis (degrees)")
		}
		axis := *k.Axis
		if !(axis.Norm() > 0) || !axis.IsFinite() {
			return collider.Quat{}, false, keyError(key+".axis", "%v: must be a finite, non-zero vector", axis)
		}
		return collider.QuatAxisAngle(axis, *k.Angle*math.Pi/180), true, nil
	case k.Angle != nil:
		return collider.Quat{}, false, keyError(key+".axis", "required with angle")
	}
	return collider.Quat{}, false, nil
}
