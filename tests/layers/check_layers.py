#!/usr/bin/env python3
"""Checks that the runtime and the report do not reach into each other.

The layers, bottom up: io/, filter/, cube/, text_views/, plans/, otf2_api/ are shared;
runtime/ (libhcc.so) and wrappers/ (libhcc_mpi.so) build on them, and so does
report/ (hcc-report). Neither side may use the other's files:

  --rule runtime  runtime/ and wrappers/ use nothing under report/
  --rule report   report/ uses nothing under runtime/

"Use" means, for a source file, a quoted #include whose path names a file
that exists only under the forbidden folder (matched by its trailing path
components, e.g. "summary.hpp" or "trace/otf2_api.hpp"; a header next to
the including file wins, as the compiler picks it first); and for a CMake
file, a target_link_libraries/link_libraries/target_include_directories/
include_directories argument that names a target added
(add_library/add_executable) under the forbidden folder, or a directory under
it. Every finding is printed as file:line: what, and the exit status is 1.
"""
import argparse
import os
import re
import sys

RULES = {
    "runtime": (["runtime", "wrappers"], ["report"]),
    "report": (["report"], ["runtime"]),
}
SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
CMAKE_TARGET = re.compile(r"\badd_(?:library|executable)\s*\(\s*([A-Za-z0-9_.+-]+)", re.I)
CMAKE_USE = re.compile(
    r"\b(target_link_libraries|link_libraries|target_include_directories|include_directories)\s*\(",
    re.I)
WORD = re.compile(r"[A-Za-z0-9_.+-]+")


def is_cmake(name):
    return name == "CMakeLists.txt" or name.endswith(".cmake")


def walk(root, top):
    """Files under root/top (relative to root), build trees and hidden folders left out."""
    base = os.path.join(root, top)
    for d, dirs, files in os.walk(base):
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and not x.startswith("build"))
        for f in sorted(files):
            yield os.path.relpath(os.path.join(d, f), root)


def all_files(root):
    """Every file of the tree (relative paths), for resolving includes."""
    out = []
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = sorted(x for x in dirs
                         if not x.startswith(".") and not (rel == "." and x.startswith("build")))
        out.extend(os.path.relpath(os.path.join(d, f), root) for f in files)
    return out


def under(path, folders):
    return any(path == f or path.startswith(f + "/") for f in folders)


def strip_cmake_comment(line):
    # A '#' outside quotes starts a comment (bracket comments are not used here).
    quoted = False
    for i, c in enumerate(line):
        if c == '"':
            quoted = not quoted
        elif c == "#" and not quoted:
            return line[:i]
    return line


def cmake_commands(text):
    """(command, [(argument, line)]) for each command that links or adds include directories."""
    lines = [strip_cmake_comment(l) for l in text.split("\n")]
    flat = "\n".join(lines)
    for m in CMAKE_USE.finditer(flat):
        depth, i = 1, m.end()
        while i < len(flat) and depth:
            depth += {"(": 1, ")": -1}.get(flat[i], 0)
            i += 1
        body_start = m.end()
        args = []
        for a in re.finditer(r"\S+", flat[body_start:i - 1]):
            args.append((a.group(0), flat.count("\n", 0, body_start + a.start()) + 1))
        yield m.group(1).lower(), args


def targets_under(root, folders):
    """Target name -> "file:line" where it is added, for every CMake file under folders."""
    found = {}
    for top in folders:
        for rel in walk(root, top):
            if not is_cmake(os.path.basename(rel)):
                continue
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = CMAKE_TARGET.search(strip_cmake_comment(line))
                    if m:
                        found.setdefault(m.group(1), f"{rel}:{n}")
    return found


def resolve_dir(arg, cmake_file):
    """The folder (relative to the tree) an include-directory argument names, or None."""
    here = os.path.dirname(cmake_file)
    arg = arg.strip('"')
    for var, value in (("${CMAKE_CURRENT_SOURCE_DIR}", here), ("${CMAKE_CURRENT_LIST_DIR}", here),
                       ("${PROJECT_SOURCE_DIR}", "."), ("${CMAKE_SOURCE_DIR}", "."),
                       ("${hcc_SOURCE_DIR}", ".")):
        if arg.startswith(var):
            return os.path.normpath(value + arg[len(var):])
    if "$" in arg or os.path.isabs(arg) or arg.isupper():
        return None  # another variable, a system path or a keyword (PUBLIC, PRIVATE ...)
    return os.path.normpath(os.path.join(here, arg))


def check(root, users, forbidden):
    files = all_files(root)
    forbidden_files = [f for f in files if under(f, forbidden)]
    allowed_files = [f for f in files if not under(f, forbidden)]
    forbidden_targets = targets_under(root, forbidden)
    findings, scanned = [], 0

    def matches(include, pool):
        return [f for f in pool if f == include or f.endswith("/" + include)]

    for top in users:
        for rel in walk(root, top):
            name = os.path.basename(rel)
            path = os.path.join(root, rel)
            if rel.endswith(SOURCE_SUFFIXES):
                scanned += 1
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        beside = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
                        if os.path.exists(os.path.join(root, beside)) and not under(beside, forbidden):
                            continue
                        there = matches(inc, forbidden_files)
                        if there and not matches(inc, allowed_files):
                            findings.append(f'{rel}:{n}: includes "{inc}", which lives in {there[0]}')
            elif is_cmake(name):
                scanned += 1
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for command, args in cmake_commands(text):
                    for arg, n in args:
                        for word in WORD.findall(arg):
                            if word in forbidden_targets:
                                findings.append(f"{rel}:{n}: {command} names target {word}, "
                                                f"added at {forbidden_targets[word]}")
                        if command.endswith("include_directories"):
                            d = resolve_dir(arg, rel)
                            if d and under(d, forbidden):
                                findings.append(f"{rel}:{n}: {command} adds {arg} ({d}/)")
    return findings, scanned


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, help="top of the source tree")
    ap.add_argument("--rule", required=True, choices=sorted(RULES))
    a = ap.parse_args()
    users, forbidden = RULES[a.rule]
    for folder in users + forbidden:
        if not os.path.isdir(os.path.join(a.root, folder)):
            print(f"check_layers: --root {a.root}: no folder {folder}/ there", file=sys.stderr)
            return 2
    findings, scanned = check(a.root, users, forbidden)
    if scanned == 0:
        print(f"check_layers: --root {a.root}: no sources or CMake files under {', '.join(users)}",
              file=sys.stderr)
        return 2
    uses = f"{' and '.join(u + '/' for u in users)} must not use {' or '.join(f + '/' for f in forbidden)}"
    for f in findings:
        print(f"{f} ({uses})")
    if findings:
        print(f"check_layers: {len(findings)} finding(s) in {scanned} files: {uses}")
        return 1
    print(f"check_layers: {scanned} files checked: {uses}, and they do not")
    return 0


if __name__ == "__main__":
    sys.exit(main())
