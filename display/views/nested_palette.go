package views

import "math"

// NestedPalette colours a three-level hierarchy so that a colour tells the
// branch: groups (racks, say) get hues evenly around the colour wheel,
// the members of a group (hosts) hues within their group's sector of the
// wheel, and the members of a member (workers) shades, light to dark, of
// their parent's hue. Colours of different branches never coincide, and a
// parent's colour differs from its children's in lightness.
//
// groups is the number of top-level groups; memberOf[i] is the group of
// member i; leafOf[j] is the member of leaf j. It returns the colours
// ("#rrggbb") of the groups, the members and the leaves, the same for the
// same input. Colours come from OKLCH at fixed lightness levels, so that
// hues of equal weight sit side by side; pair them with labels (above a
// few dozen, hues get close).
func NestedPalette(groups int, memberOf, leafOf []int) (groupColours, memberColours, leafColours []string) {
	const (
		chroma  = 0.12
		groupL  = 0.42
		memberL = 0.64
		// Leaves take lightnesses in two bands, above and below the
		// members' own, light ones first.
		lightHi, lightLo = 0.84, 0.72
		darkHi, darkLo   = 0.57, 0.50
		firstHueDeg      = 25.0
	)
	if groups <= 0 {
		return nil, nil, nil
	}
	sector := 360 / float64(groups)
	groupHue := func(g int) float64 { return firstHueDeg + float64(g)*sector }
	groupColours = make([]string, groups)
	for g := range groupColours {
		groupColours[g] = oklchToHex(groupL, chroma, groupHue(g))
	}
	// Members spread over their group's sector, centred on its hue.
	count := make([]int, groups)
	rank := make([]int, len(memberOf))
	for i, g := range memberOf {
		if g < 0 || g >= groups {
			g = 0
		}
		rank[i] = count[g]
		count[g]++
	}
	memberHue := make([]float64, len(memberOf))
	memberColours = make([]string, len(memberOf))
	for i, g := range memberOf {
		if g < 0 || g >= groups {
			g = 0
		}
		k := float64(count[g])
		span := sector
		if groups > 1 {
			span = sector * 0.8 // keep a gap between the sectors of two groups
		}
		h := groupHue(g)
		if k > 1 || groups == 1 {
			h = groupHue(g) - span/2 + (float64(rank[i])+0.5)*span/k
		}
		memberHue[i] = math.Mod(h+360, 360)
		memberColours[i] = oklchToHex(memberL, chroma, memberHue[i])
	}
	// Leaves are shades of their member's hue.
	lcount := make([]int, len(memberOf))
	lrank := make([]int, len(leafOf))
	for j, m := range leafOf {
		if m < 0 || m >= len(memberOf) {
			continue
		}
		lrank[j] = lcount[m]
		lcount[m]++
	}
	leafColours = make([]string, len(leafOf))
	for j, m := range leafOf {
		if m < 0 || m >= len(memberOf) {
			leafColours[j] = "#999999"
			continue
		}
		t := 0.25 // one leaf: a light shade
		if n := lcount[m]; n > 1 {
			t = float64(lrank[j]) / float64(n-1)
		}
		light, dark := lightHi-lightLo, darkHi-darkLo
		p := t * (light + dark)
		l := lightHi - p
		if p > light {
			l = darkHi - (p - light)
		}
		leafColours[j] = oklchToHex(l, chroma, memberHue[m])
	}
	return groupColours, memberColours, leafColours
}
