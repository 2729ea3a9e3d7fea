package io.kgrag.jobs.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A main class of the test classpath run in a JVM of its own, with the Java 17 flags Spark needs (as the pom gives
 * them to this JVM) and the quiet log configuration, in directory {@code dir} (where Derby, say, writes its log).
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** Runs {@code mainClass} with {@code args}; its standard output, after asserting it exited 0 within 10 minutes. */
  public static String run(Path dir, String mainClass, List<String> args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.equals("-XX:+IgnoreUnrecognizedVMOptions") || a.startsWith("-Djdk.reflect.")
          || a.startsWith("-Dai.djl.") || a.startsWith("-Djna.") || a.startsWith("-DDJL_CACHE_DIR") || a.startsWith("-DENGINE_CACHE_DIR")) {
        cmd.add(a);
      }
    }
    String log4j = System.getProperty("log4j2.configurationFile");
    if (log4j != null) {
      cmd.add("-Dlog4j2.configurationFile=" + log4j); // conf/log4j2.properties: Spark quiet
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    cmd.addAll(args);
    Files.createDirectories(dir);
    Path out = Files.createTempFile(dir, "stdout", ".txt");
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(mainClass + "'s JVM did not end; its stderr:\n" + Files.readString(err));
    }
    assertEquals(0, p.exitValue(), () -> mainClass + " " + args + " failed in its JVM; its stderr:\n" + read(err));
    return Files.readString(out);
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
