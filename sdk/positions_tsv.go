package sdk

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// writePositionsTSV writes node positions as tab-separated values with the
// header "id\tlabel\tx\ty\tgroup": the node index, its label, x and y (the
// shortest decimal that reads back as the same float64) and its group.
// labels and groups may be nil (empty columns). Tabs and line breaks in a
// label become spaces, so every node is one line.
func writePositionsTSV(w io.Writer, labels []string, x, y []float64, groups []int32) error {
	n := len(x)
	if len(y) != n {
		return fmt.Errorf("sdk.WritePositions: %d x but %d y positions", n, len(y))
	}
	if labels != nil && len(labels) != n {
		return fmt.Errorf("sdk.WritePositions: %d labels for %d nodes", len(labels), n)
	}
	if groups != nil && len(groups) != n {
		return fmt.Errorf("sdk.WritePositions: %d groups for %d nodes", len(groups), n)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("id\tlabel\tx\ty\tgroup\n")
	clean := strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ")
	var buf []byte
	for i := range n {
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		buf = append(buf, '\t')
		if labels != nil {
			buf = append(buf, clean.Replace(labels[i])...)
		}
		buf = append(buf, '\t')
		buf = strconv.AppendFloat(buf, x[i], 'g', -1, 64)
		buf = append(buf, '\t')
		buf = strconv.AppendFloat(buf, y[i], 'g', -1, 64)
		buf = append(buf, '\t')
		if groups != nil {
			buf = strconv.AppendInt(buf, int64(groups[i]), 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
