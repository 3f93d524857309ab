package abc

// A Pose is an archive's hierarchy at one time t: the world matrix and visibility of
// each object asked about, and of the objects above it, worked out once. Posing n
// objects that hang under a chain of d Xforms then reads d local matrices and
// multiplies n + d matrices, where asking each object on its own (Object.WorldMatrix)
// walks the whole chain each time, n d in all.
//
// A Pose remembers one matrix and one flag per object it has met, so its memory
// follows the objects asked about (at most the archive's objects); make one per time,
// and drop it after. Like the Archive, it is not safe for concurrent use.
type Pose struct {
	t       float64
	world   map[*Object]worldMatrix
	visible map[*Object]bool
}

// worldMatrix is a remembered world matrix; moved is false for the identity that
// objects with no Xform above them have, which is left out of products so that a
// matrix does not depend on which objects were posed first.
type worldMatrix struct {
	m     Matrix
	moved bool
}

// NewPose returns an empty pose of time t (seconds).
func NewPose(t float64) *Pose {
	return &Pose{t: t, world: map[*Object]worldMatrix{}, visible: map[*Object]bool{}}
}

// Time returns the pose's time.
func (p *Pose) Time() float64 { return p.t }

// WorldMatrix returns o's transform to world space: W(o) = L(o) W(parent) for an
// Xform that inherits, with L(o) its local matrix at the nearest sample (Matrix
// applies the left factor first); W(o) = L(o) for one that does not, so nothing above
// it is read; W(o) = W(parent) for other objects; and the identity above the top.
//
// It climbs from o to the first object whose world matrix the pose knows (or the
// top, or an Xform that does not inherit), reading the local matrices on the way,
// then multiplies them back down, remembering each object's world matrix.
func (p *Pose) WorldMatrix(o *Object) (Matrix, error) {
	type link struct {
		o     *Object
		local Matrix
		xform bool // whether local applies: o is an Xform
	}
	var chain []link
	above, haveAbove := Identity, false // the world matrix above the chain
	for q := o; q != nil; q = q.Parent {
		if w, ok := p.world[q]; ok {
			above, haveAbove = w.m, w.moved
			break
		}
		l := link{o: q}
		inherits := true
		if q.IsXform() {
			x, err := q.Xform()
			if err != nil {
				return Identity, err
			}
			if l.local, inherits, err = x.At(p.t); err != nil {
				return Identity, err
			}
			l.xform = true
		}
		chain = append(chain, l)
		if !inherits {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		switch l := chain[i]; {
		case l.xform && haveAbove:
			above = l.local.Mul(above)
		case l.xform:
			above, haveAbove = l.local, true
		}
		p.world[chain[i].o] = worldMatrix{above, haveAbove}
	}
	return above, nil
}

// IsVisible reports whether o is visible: its own visibility, or when deferred its
// parent's, up to the top, which is visible. The objects passed on the way, all
// deferred, get the same answer, which the pose remembers.
func (p *Pose) IsVisible(o *Object) (bool, error) {
	var deferred []*Object
	visible := true
	for q := o; q != nil; q = q.Parent {
		if v, ok := p.visible[q]; ok {
			visible = v
			break
		}
		v, err := q.Visibility(p.t)
		if err != nil {
			return false, err
		}
		deferred = append(deferred, q)
		if v != VisibilityDeferred {
			visible = v == VisibilityVisible
			break
		}
	}
	for _, q := range deferred {
		p.visible[q] = visible
	}
	return visible, nil
}
