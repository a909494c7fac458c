#!/usr/bin/env python3
"""check_layers.py on small trees made here: the layout before the shared
folders existed must fail with file:line for each crossing, a clean layout
must pass, and a header of the same name next to its includer is no crossing."""
import os
import subprocess
import sys
import tempfile
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_layers.py")


def make_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write(text)


def run(root, rule):
    p = subprocess.run([sys.executable, CHECKER, "--root", root, "--rule", rule],
                       capture_output=True, text=True)
    return p.returncode, p.stdout.splitlines()


# The old layout in miniature: the text views in report/views (linked and
# included by libhcc), the OTF2 loader in runtime/trace (linked and included by
# hcc-report, and runtime/ added to its include path).
OLD = {
    "report/views/CMakeLists.txt": "# the text views\nadd_library(hcc_views STATIC summary.cpp)\n",
    "report/views/summary.hpp": "#pragma once\n",
    "report/views/summary.cpp": '#include "summary.hpp"\n',
    "report/views/trace_json.cpp": '// reads OTF2\n#include <map>\n#include "trace/otf2_api.hpp"\n',
    "report/CMakeLists.txt": (
        "add_executable(hcc_report main.cpp)\n"
        "target_link_libraries(hcc_report PRIVATE\n"
        "  hcc_views  # hcc_otf2_api in a comment is no link\n"
        "  hcc_otf2_api)\n"
        "target_include_directories(hcc_report PRIVATE ${PROJECT_SOURCE_DIR}/runtime/trace)\n"),
    "report/main.cpp": '#include "summary.hpp"\n',
    "runtime/trace/CMakeLists.txt": "add_library(hcc_otf2_api STATIC otf2_api.cpp)\n",
    "runtime/trace/otf2_api.hpp": "#pragma once\n",
    "runtime/trace/otf2_api.cpp": '#include "otf2_api.hpp"\n',
    "runtime/core/CMakeLists.txt": (
        "add_library(hcc_runtime SHARED output.cpp)\n"
        "target_link_libraries(hcc_runtime PRIVATE hcc_profile\n  hcc_views)\n"),
    "runtime/core/output.cpp": '#include <string>\n\n#include "summary.hpp"\n',
    "wrappers/mpi.cpp": '#include "views/summary.hpp"\n',
}


class OldLayout(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        make_tree(self.dir.name, OLD)

    def tearDown(self):
        self.dir.cleanup()

    def test_runtime_using_report_fails_with_file_and_line(self):
        rc, out = run(self.dir.name, "runtime")
        self.assertEqual(rc, 1)
        self.assertEqual([l.split(" (")[0] for l in out[:-1]], [
            "runtime/core/CMakeLists.txt:3: target_link_libraries names target hcc_views, "
            "added at report/views/CMakeLists.txt:2",
            'runtime/core/output.cpp:3: includes "summary.hpp", which lives in report/views/summary.hpp',
            'wrappers/mpi.cpp:1: includes "views/summary.hpp", which lives in report/views/summary.hpp',
        ])
        self.assertEqual(out[-1], "check_layers: 3 finding(s) in 6 files: "
                                  "runtime/ and wrappers/ must not use report/")

    def test_report_using_runtime_fails_with_file_and_line(self):
        rc, out = run(self.dir.name, "report")
        self.assertEqual(rc, 1)
        self.assertEqual([l.split(" (")[0] for l in out[:-1]], [
            "report/CMakeLists.txt:4: target_link_libraries names target hcc_otf2_api, "
            "added at runtime/trace/CMakeLists.txt:1",
            "report/CMakeLists.txt:5: target_include_directories adds "
            "${PROJECT_SOURCE_DIR}/runtime/trace",
            'report/views/trace_json.cpp:3: includes "trace/otf2_api.hpp", '
            "which lives in runtime/trace/otf2_api.hpp",
        ])


class NewLayout(unittest.TestCase):
    def test_shared_folders_below_both_pass(self):
        with tempfile.TemporaryDirectory() as root:
            make_tree(root, {
                "text_views/CMakeLists.txt": "add_library(hcc_text_views STATIC summary.cpp)\n",
                "text_views/summary.hpp": "#pragma once\n",
                "otf2_api/CMakeLists.txt": "add_library(hcc_otf2_api STATIC otf2_api.cpp)\n",
                "otf2_api/otf2_api.hpp": "#pragma once\n",
                "report/CMakeLists.txt": (
                    "add_executable(hcc_report main.cpp)\n"
                    "target_link_libraries(hcc_report PRIVATE hcc_text_views hcc_otf2_api)\n"
                    "target_include_directories(hcc_report PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/views)\n"),
                "report/main.cpp": '#include "summary.hpp"\n#include "otf2_api/otf2_api.hpp"\n',
                # Same name on both sides: each includes its own, which is no crossing.
                "report/views/paths.hpp": "#pragma once\n",
                "report/views/watch.cpp": '#include "paths.hpp"\n',
                "runtime/core/CMakeLists.txt": (
                    "add_library(hcc_runtime SHARED output.cpp)\n"
                    "target_link_libraries(hcc_runtime PRIVATE hcc_text_views)\n"
                    "target_include_directories(hcc_runtime PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/..)\n"),
                "runtime/core/output.cpp": '#include "summary.hpp"\n#include "paths.hpp"\n',
                "runtime/core/paths.hpp": "#pragma once\n",
                "wrappers/mpi.cpp": '#include "summary.hpp"\n',
            })
            for rule in ("runtime", "report"):
                rc, out = run(root, rule)
                self.assertEqual(rc, 0, f"--rule {rule}: {out}")


class WrongRoot(unittest.TestCase):
    def test_a_tree_without_the_folders_is_an_error_not_a_pass(self):
        with tempfile.TemporaryDirectory() as root:
            p = subprocess.run([sys.executable, CHECKER, "--root", root, "--rule", "report"],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertIn("no folder report/ there", p.stderr)


if __name__ == "__main__":
    unittest.main()
