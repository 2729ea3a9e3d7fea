package io.kgrag.udfs.io;

import io.kgrag.core.UserInputException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Resolves what a user names as input (a file, a directory, or a glob, on local disk or any Hadoop file
 * system) into the sorted list of files to read. Hidden files ({@code .x}, {@code _x}) inside directories
 * are skipped, as Spark does.
 */
public final class InputPaths {
  private InputPaths() {}

  /**
   * @throws UserInputException when nothing matches, or when the input is an archive that must be
   *     extracted first
   */
  public static List<String> resolve(Configuration conf, String spec, String what) {
    if (spec == null || spec.isBlank()) {
      throw new UserInputException(what + " path is empty");
    }
    List<String> files = new ArrayList<>();
    try {
      Path p = new Path(spec);
      FileSystem fs = p.getFileSystem(conf);
      FileStatus[] matches = fs.globStatus(p);
      if (matches == null || matches.length == 0) {
        throw new UserInputException(what + " not found: " + spec + " (check the path; globs like dir/*.txt are allowed)");
      }
      for (FileStatus m : matches) {
        if (m.isDirectory()) {
          RemoteIterator<LocatedFileStatus> it = fs.listFiles(m.getPath(), true);
          while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            if (!hidden(m.getPath(), f.getPath())) {
              files.add(f.getPath().toString());
            }
          }
        } else {
          files.add(m.getPath().toString());
        }
      }
    } catch (IOException e) {
      throw new UserInputException("cannot read " + what + " " + spec + ": " + e.getMessage(), e);
    }
    if (files.isEmpty()) {
      throw new UserInputException(what + " " + spec + " holds no files");
    }
    for (String f : files) {
      String lower = f.toLowerCase(Locale.ROOT);
      if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz") || lower.endsWith(".tar") || lower.endsWith(".zip")) {
        throw new UserInputException(
            what + " " + f + " is an archive; extract it first (e.g. tar xzf) and give the extracted files"
                + " (plain and .gz-compressed text files are read directly)");
      }
    }
    files.sort(null);
    return files;
  }

  private static boolean hidden(Path root, Path file) {
    Path p = file;
    while (p != null && !p.equals(root)) {
      String n = p.getName();
      if (n.startsWith(".") || n.startsWith("_")) {
        return true;
      }
      p = p.getParent();
    }
    return false;
  }

  /** The default {@code source} of rows read from {@code input}: its last path component. */
  public static String defaultSource(String input) {
    String s = input.replace('\\', '/').replaceAll("/+$", "");
    int i = s.lastIndexOf('/');
    String last = i >= 0 ? s.substring(i + 1) : s;
    return last.isEmpty() ? input : last;
  }
}
