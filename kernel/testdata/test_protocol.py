"""The official Jupyter kernel test suite (jupyter_kernel_test) against the
installed Go (Superstep) kernel, with every sample filled in."""

import unittest

import jupyter_kernel_test as jkt


class SuperstepKernelTests(jkt.KernelTests):
    kernel_name = "superstep"
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'import "os"\nfmt.Fprintln(os.Stderr, "to stderr")'

    completion_samples = [
        {"text": "fmt.Sprin", "matches": {"Sprint", "Sprintf", "Sprintln"}},
        {"text": "strings.ToUp", "matches": {"ToUpper", "ToUpperSpecial"}},
        {"text": "x := 1\nfor i := ran", "matches": {"range"}},
    ]

    complete_code_samples = ['fmt.Println("hi")', "x := 1", "func f() int { return 1 }", "for i := 0; i < 3; i++ {\n\tfmt.Println(i)\n}"]
    incomplete_code_samples = ["func f() int {", "for i := 0; i < 3; i++ {", "x := []int{1,\n2,", "s := `raw"]
    invalid_code_samples = ["x := )", "}", "func f() { y := ) }"]

    code_page_something = 'display.Page("Superstep help")'

    code_generate_error = 'panic("boom")'

    code_execute_result = [
        {"code": "6*7", "result": "42"},
        {"code": 'strings.ToUpper("go")', "result": '"GO"'},
        {"code": "x := 20\nx + 1", "result": "21"},
    ]

    code_display_data = [
        {"code": 'display.Show(display.HTML("<b>bold</b>"))', "mime": "text/html"},
        {"code": 'display.Show(views.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`))', "mime": "image/svg+xml"},
        {"code": 'import "image"\ndisplay.Show(image.NewRGBA(image.Rect(0, 0, 2, 2)))', "mime": "image/png"},
        {"code": 'display.Show(display.Markdown("# title"))', "mime": "text/markdown"},
        {"code": 'display.Show(display.JSON(map[string]int{"a": 1}))', "mime": "application/json"},
    ]

    code_history_pattern = "6*"
    supported_history_operations = ("tail", "range", "search")

    code_inspect_sample = "strings.ToUpper"

    code_clear_output = "display.Clear(false)"


if __name__ == "__main__":
    unittest.main(verbosity=2)
