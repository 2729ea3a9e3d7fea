package io.kgrag.jobs.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code bin/kgrag} hands {@code spark-submit} when {@code SPARK_HOME} is set, read from a stand-in
 * {@code spark-submit} that prints its arguments: the executors' JVM options of the profile (or of
 * {@code spark-defaults.conf}) reach the executors, with DJL's offline switch added once. Integration tier:
 * the launcher needs the packaged jars.
 */
class LauncherOptionsIT {
  private static final String KEY = "spark.executor.extraJavaOptions=";

  @TempDir Path dir;

  /** The value of the launcher's {@code --conf spark.executor.extraJavaOptions=...}, from the stand-in's output. */
  private String executorOptions(Path sparkHome, Path profile) throws IOException, InterruptedException {
    return executorOptions(sparkHome, profile, "1");
  }

  private String executorOptions(Path sparkHome, Path profile, String vectorApi) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(LocalCluster.kgragHome().resolve("bin/kgrag").toString(), "--version"));
    if (profile != null) {
      cmd.addAll(List.of("--conf-file", profile.toString()));
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("SPARK_HOME", sparkHome.toString());
    pb.environment().put("KGRAG_NO_BUILD", "1");
    pb.environment().put("KGRAG_VECTOR_API", vectorApi);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "bin/kgrag did not finish");
    assertEquals(0, p.exitValue(), out);
    String[] args = out.split("\n");
    List<String> values = new ArrayList<>();
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("--conf") && args[i + 1].startsWith(KEY)) {
        values.add(args[i + 1].substring(KEY.length()));
      }
    }
    assertEquals(1, values.size(), "one --conf for the executors' options:\n" + out);
    return values.get(0);
  }

  private Path sparkHome(String defaults) throws IOException {
    Path home = Files.createDirectories(dir.resolve("spark-" + Math.abs(String.valueOf(defaults).hashCode())));
    Path submit = Files.createDirectories(home.resolve("bin")).resolve("spark-submit");
    Files.writeString(submit, "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\"\n");
    Files.setPosixFilePermissions(submit, PosixFilePermissions.fromString("rwxr-xr-x"));
    if (defaults != null) {
      Files.writeString(Files.createDirectories(home.resolve("conf")).resolve("spark-defaults.conf"), defaults);
    }
    return home;
  }

  @Test
  void theProfilesExecutorOptionsAreKeptAndTheOfflineSwitchAndVectorApiAddedOnce() throws Exception {
    Path profile = Files.writeString(dir.resolve("p.properties"), "spark.executor.extraJavaOptions   -Dlog4j2.configurationFile=/x/log4j2.properties -Xss4m\n");
    assertEquals("-Dlog4j2.configurationFile=/x/log4j2.properties -Xss4m -Dai.djl.offline=true --add-modules=jdk.incubator.vector", executorOptions(sparkHome(null), profile));

    Path already = Files.writeString(dir.resolve("q.properties"), "spark.executor.extraJavaOptions=-Dai.djl.offline=true -XX:+UseG1GC --add-modules=jdk.incubator.vector\n");
    assertEquals("-Dai.djl.offline=true -XX:+UseG1GC --add-modules=jdk.incubator.vector", executorOptions(sparkHome(null), already));

    Path none = Files.writeString(dir.resolve("r.properties"), "spark.executor.memory 2g\n");
    assertEquals("-Dai.djl.offline=true --add-modules=jdk.incubator.vector", executorOptions(sparkHome(null), none));
  }

  @Test
  void withoutAProfileSparkDefaultsExecutorOptionsAreKept() throws Exception {
    assertEquals("-XX:+UseParallelGC -Dai.djl.offline=true --add-modules=jdk.incubator.vector",
        executorOptions(sparkHome("spark.executor.extraJavaOptions -XX:+UseParallelGC\nspark.executor.memory 1g\n"), null));
    assertEquals("-Dai.djl.offline=true --add-modules=jdk.incubator.vector", executorOptions(sparkHome("spark.executor.memory 1g\n"), null));
  }

  @Test
  void theVectorApiIsLeftOutWhenSwitchedOff() throws Exception {
    Path profile = Files.writeString(dir.resolve("v.properties"), "spark.executor.extraJavaOptions -Xss4m\n");
    assertEquals("-Xss4m -Dai.djl.offline=true", executorOptions(sparkHome(null), profile, "0"));
  }
}
