package profile

import "fmt"

// String summarises a profile in one line.
func (p *Profile) String() string {
	if p == nil {
		return "<nil>"
	}
	t := p.Totals()
	return fmt.Sprintf("profile of %s: %d supersteps on %d workers, %d messages, %d bytes, modelled time %v, measured time %v",
		p.Job, t.Supersteps, len(p.Vertices), t.Messages, t.Bytes, t.Modelled, t.Measured)
}
