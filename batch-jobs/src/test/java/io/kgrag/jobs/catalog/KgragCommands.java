package io.kgrag.jobs.catalog;

import io.kgrag.jobs.KgragMain;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

/**
 * kgrag's commands run one after another in a JVM of its own, as {@code bin/kgrag} would run them: each line of the
 * file given is one command, its arguments separated by tabs. Exits with the first non-zero exit code.
 */
public final class KgragCommands {
  private KgragCommands() {}

  public static void main(String[] args) throws Exception {
    List<String> lines = Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8);
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      int code = KgragMain.execute(out, err, line.split("\t"));
      if (code != 0) {
        err.println("kgrag " + line.replace('\t', ' ') + ": exit " + code);
        System.exit(code);
      }
    }
    System.exit(0);
  }
}
