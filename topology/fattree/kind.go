package fattree

import "fmt"

// Kind is the kind of a directed link: the levels it joins and its
// direction. A link is "up" when its source is on the lower level
// (TreeScope's convention), "down" otherwise. The constants are in link id
// order.
type Kind uint8

// The six kinds of directed link, in the order link ids use.
const (
	Up01   Kind = iota // node → L1
	Down10             // L1 → node
	Up12               // L1 → L2
	Down21             // L2 → L1
	Up23               // L2 → L3
	Down32             // L3 → L2
)

// NumKinds is the number of link kinds; Kind(0) … Kind(NumKinds-1) are
// all of them.
const NumKinds = 6

// String is "L0->L1", "L1->L0", "L1->L2", "L2->L1", "L2->L3" or "L3->L2".
func (k Kind) String() string {
	if k >= NumKinds {
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
	return fmt.Sprintf("L%d->L%d", k.From(), k.To())
}

// From is the level of the links' source: 0 for a node, 1–3 for a switch.
func (k Kind) From() int {
	return [NumKinds]int{0, 1, 1, 2, 2, 3}[k%NumKinds]
}

// To is the level of the links' destination.
func (k Kind) To() int {
	return [NumKinds]int{1, 0, 2, 1, 3, 2}[k%NumKinds]
}

// Up reports whether links of kind k go up the tree (to a higher level).
func (k Kind) Up() bool { return k%2 == 0 }

// Reverse is the kind of the opposite direction of the same cables.
func (k Kind) Reverse() Kind { return k ^ 1 }

// Cell reports whether links of kind k join two switches: those are the
// cells of TreeScope's matrix view (links to and from nodes are not drawn
// there).
func (k Kind) Cell() bool { return k >= Up12 && k < NumKinds }
