package io.kgrag.jobs.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark standalone cluster on 127.0.0.1 started by {@code bin/kgrag-cluster} (a master and two workers,
 * one executor JVM per worker), and kgrag jobs submitted to it through {@code bin/kgrag} with
 * {@code SPARK_HOME} set, that is through {@code spark-submit} as on a real cluster. The jars are the
 * ones {@code mvn package} built; the launcher is told never to rebuild them.
 */
final class LocalCluster implements AutoCloseable {
  private static final Pattern EXPORT = Pattern.compile("export (\\w+)='([^']*)'");

  private final Path home;
  private final Path dir;
  private final Map<String, String> env = new HashMap<>();

  private LocalCluster(Path home, Path dir) {
    this.home = home;
    this.dir = dir;
  }

  /** The repository root (the parent of batch-jobs, where Maven runs the tests). */
  static Path kgragHome() {
    Path cwd = Path.of("").toAbsolutePath();
    for (Path p = cwd; p != null; p = p.getParent()) {
      if (Files.isExecutable(p.resolve("bin/kgrag-cluster"))) {
        return p;
      }
    }
    throw new IllegalStateException("bin/kgrag-cluster not found above " + cwd);
  }

  /** Starts a master and two one-core workers of 2 GB (executors of 1,638 MB heap) whose state lives under {@code dir}. */
  static LocalCluster start(Path dir) throws IOException, InterruptedException {
    return start(dir, "2g");
  }

  /**
   * Starts a master and two one-core workers of {@code workerMemory} each ({@code bin/kgrag-cluster start
   * --worker-memory}: the profile gives each executor four fifths of it as heap) whose state lives under {@code dir}.
   */
  static LocalCluster start(Path dir, String workerMemory) throws IOException, InterruptedException {
    LocalCluster c = new LocalCluster(kgragHome(), dir);
    String out = c.script("start", "--workers", "2", "--worker-cores", "1", "--worker-memory", workerMemory);
    for (String line : out.split("\n")) {
      Matcher m = EXPORT.matcher(line.trim());
      if (m.matches()) {
        c.env.put(m.group(1), m.group(2));
      }
    }
    if (!c.env.containsKey("SPARK_HOME") || !c.env.containsKey("KGRAG_CLUSTER_CONF")) {
      throw new IllegalStateException("kgrag-cluster start printed no environment:\n" + out);
    }
    return c;
  }

  /** The generated spark-submit profile (master URL, executors). */
  String conf() {
    return env.get("KGRAG_CLUSTER_CONF");
  }

  /** Pids of the executor JVMs now running. */
  List<Long> executors() throws IOException, InterruptedException {
    List<Long> pids = new ArrayList<>();
    for (String line : script("executors").split("\n")) {
      if (!line.isBlank()) {
        pids.add(Long.parseLong(line.trim()));
      }
    }
    return pids;
  }

  /** Kills one executor JVM with SIGKILL (a lost machine); returns its pid. */
  long killAnExecutor(Duration wait) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline) {
      List<Long> pids = executors();
      if (!pids.isEmpty()) {
        long pid = pids.get(0);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        return pid;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("no executor ran within " + wait);
  }

  /**
   * Submits {@code bin/kgrag <args> --conf-file <profile>} (a profile with this cluster's master, see
   * {@link #conf()}; its {@code spark.driver.memory} is the driver's heap); its output goes to {@code log}.
   */
  Job submit(Path log, Path profile, String... args) throws IOException {
    List<String> all = new ArrayList<>(Arrays.asList(args));
    all.add("--conf-file");
    all.add(profile.toString());
    Map<String, String> submitEnv = new HashMap<>(env);
    submitEnv.put("KGRAG_JARS_LOCAL", "1");
    return launch(home, log, submitEnv, all, String.join(" ", args));
  }

  /**
   * Runs {@code bin/kgrag <args>} in local mode on this machine (no cluster, no {@code SPARK_HOME}), with a
   * driver of {@code driverMemory}; its output goes to {@code log}.
   */
  static Job runLocally(Path log, String driverMemory, String... args) throws IOException {
    return launch(kgragHome(), log, Map.of("KGRAG_DRIVER_MEMORY", driverMemory), Arrays.asList(args), String.join(" ", args));
  }

  /** Starts {@code bin/kgrag <args>} with {@code env} over this JVM's environment less SPARK_HOME, never rebuilding the jars. */
  private static Job launch(Path home, Path log, Map<String, String> env, List<String> args, String what) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/kgrag").toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    pb.environment().remove("SPARK_HOME");
    pb.environment().putAll(env);
    pb.environment().put("KGRAG_NO_BUILD", "1");
    return new Job(pb.start(), log, what);
  }

  private String script(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(home.resolve("bin/kgrag-cluster").toString());
    cmd.addAll(Arrays.asList(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true);
    pb.environment().put("KGRAG_CLUSTER_DIR", dir.toString());
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("bin/kgrag-cluster " + String.join(" ", args) + " failed:\n"
          + new String(out, StandardCharsets.UTF_8));
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException, InterruptedException {
    script("stop");
  }

  /** A submitted job: its driver process (spark-submit execs into the driver JVM) and its log. */
  static final class Job {
    final Process driver;
    final Path log;
    final String what;

    Job(Process driver, Path log, String what) {
      this.driver = driver;
      this.log = log;
      this.what = what;
    }

    /** Waits until a line of the log matches {@code regex}; fails when the job ends first. */
    void awaitLine(String regex, Duration wait) throws InterruptedException {
      Pattern p = Pattern.compile(regex);
      long deadline = System.nanoTime() + wait.toNanos();
      while (System.nanoTime() < deadline) {
        if (log().lines().anyMatch(l -> p.matcher(l).find())) {
          return;
        }
        if (!driver.isAlive()) {
          throw new AssertionError("'" + what + "' ended (exit " + driver.exitValue() + ") before printing /" + regex + "/:\n" + log());
        }
        Thread.sleep(200);
      }
      throw new AssertionError("'" + what + "' printed no /" + regex + "/ within " + wait + ":\n" + log());
    }

    /** Waits for the job to end and returns its exit code. */
    int await(Duration wait) throws InterruptedException {
      if (!driver.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS)) {
        driver.destroyForcibly();
        throw new AssertionError("'" + what + "' did not end within " + wait + ":\n" + log());
      }
      return driver.exitValue();
    }

    /** Waits for the job and fails with its log unless it exited 0. */
    void succeeds(Duration wait) throws InterruptedException {
      int code = await(wait);
      if (code != 0) {
        throw new AssertionError("'" + what + "' exited " + code + ":\n" + log());
      }
    }

    String log() {
      try {
        return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
