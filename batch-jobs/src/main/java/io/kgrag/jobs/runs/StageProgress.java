package io.kgrag.jobs.runs;

import io.kgrag.core.UserInputException;
import io.kgrag.core.runs.ProgressEstimate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.LogManager;

/**
 * The progress of the stage running now, shown while it runs: {@code embed: 1,200/4,000 tasks so far (30%), 45 s,
 * about 1 min 45 s left} ({@link ProgressEstimate}). A stage is open from its {@link StageReport}'s construction to
 * {@link RunLog#succeeded} / {@link RunLog#failed}; its final line is then printed as before.
 *
 * <p>What is counted: the Spark tasks of the jobs started while the stage is open ({@link ProgressListener} passes
 * on the events): a job's stages count when it starts, stages it skips (their output already computed) leave the
 * total when it ends, a stage's retry adds its tasks, and a successful task end adds one done. Later jobs of the same
 * stage add tasks, so the total is "so far". A stage that knows its own units (training epochs on the driver) counts
 * those instead while it reports them ({@link #units}).
 *
 * <p>Where it goes: on stderr. On a terminal ({@code System.console() != null}) one line rewritten in place (from 2 s
 * on, at most twice a second), cleared before the stage's final line or any other progress line; elsewhere (logs,
 * Airflow, tests) a log line every {@value #INTERVAL} seconds (default {@value #DEFAULT_INTERVAL_SECONDS}; 0: none,
 * on a terminal too). Nothing here is ever written to a table.
 *
 * <p>One instance serves the JVM ({@link #global()}); tests build their own with a fake clock and call the event
 * methods and {@link #tick()} directly.
 */
public final class StageProgress {
  /** Seconds between progress updates of a long stage in a log; 0 turns updates off. */
  public static final String INTERVAL = "spark.kgrag.progress.interval";

  public static final int DEFAULT_INTERVAL_SECONDS = 30;

  /** On a terminal: no line before a stage has run this long, then a rewrite at most this often. */
  static final long TERMINAL_FIRST_NANOS = 2_000_000_000L;

  static final long TERMINAL_EVERY_NANOS = 500_000_000L;

  private static final StageProgress GLOBAL =
      new StageProgress(
          System::nanoTime,
          LogManager.getLogger("io.kgrag.progress")::info,
          s -> {
            System.err.print(s);
            System.err.flush();
          },
          System.console() != null,
          DEFAULT_INTERVAL_SECONDS);

  private static ScheduledExecutorService ticker;

  private final LongSupplier clock;
  private final Consumer<String> lines;
  private final Consumer<String> terminal;
  private final boolean onTerminal;
  private long intervalNanos;

  // the open stage (owner null: none)
  private Object owner;
  private String stage;
  private long start;
  private long lastShown;
  private final Set<Integer> counted = new HashSet<>(); // Spark stage ids whose tasks are in total
  private final Map<Integer, Integer> notSubmitted = new HashMap<>(); // counted, not submitted yet: their tasks
  private final Map<Integer, List<Integer>> jobs = new HashMap<>(); // job id -> its Spark stage ids
  private long total;
  private long done;
  // units the stage reports itself (unit null: none)
  private Units units;
  private String unit;
  private long unitsTotal;
  private long unitsDone;
  private long unitsStart;
  // what the terminal shows now (its length; 0: nothing)
  private int shown;

  /**
   * @param clock nanoseconds, as {@link System#nanoTime()}
   * @param lines takes a whole update line (off a terminal)
   * @param terminal takes raw text for the terminal (a {@code \r} and the line, no newline)
   * @param onTerminal whether stderr is a terminal
   * @param intervalSeconds seconds between lines off a terminal; 0: no updates
   */
  StageProgress(LongSupplier clock, Consumer<String> lines, Consumer<String> terminal, boolean onTerminal, int intervalSeconds) {
    this.clock = clock;
    this.lines = lines;
    this.terminal = terminal;
    this.onTerminal = onTerminal;
    interval(intervalSeconds);
  }

  /** The JVM's instance, which {@link ProgressListener}, {@link StageReport} and {@link RunLog} use. */
  static StageProgress global() {
    return GLOBAL;
  }

  /**
   * Sets the JVM's update interval from the value of {@value #INTERVAL} ({@link #intervalSeconds}).
   *
   * @throws UserInputException naming the key, for a bad value
   */
  public static void configure(String intervalSetting) {
    GLOBAL.interval(intervalSeconds(intervalSetting));
  }

  /**
   * The seconds a value of {@value #INTERVAL} means: null or blank the default ({@value #DEFAULT_INTERVAL_SECONDS}),
   * else a whole number, at least 0.
   *
   * @throws UserInputException naming the key and what to give, otherwise
   */
  public static int intervalSeconds(String value) {
    if (value == null || value.isBlank()) {
      return DEFAULT_INTERVAL_SECONDS;
    }
    String v = value.strip();
    int s;
    try {
      s = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      s = -1;
    }
    if (s < 0) {
      throw new UserInputException(
          "configuration " + INTERVAL + "=" + v.replaceAll("\\p{Cntrl}", "?") + " is not a whole number of seconds >= 0 (the time between"
              + " progress lines of a long stage in a log; 0 turns them off; default " + DEFAULT_INTERVAL_SECONDS + ")");
    }
    return s;
  }

  /**
   * Starts counting the units {@code unit} (plural, e.g. {@code epochs}) of the open stage, {@code total} of them,
   * instead of its Spark tasks, until the returned {@link Units} is closed. With no stage open it counts nothing.
   */
  public static Units units(String unit, long total) {
    return GLOBAL.startUnits(unit, total);
  }

  /**
   * Closes the open stage, whichever it is, clearing its terminal line: for a stage that stops on a {@link
   * UserInputException} without a runs row, so that the error is printed on a line of its own.
   */
  public static void abandon() {
    GLOBAL.endAny();
  }

  synchronized void endAny() {
    end(owner);
  }

  synchronized void interval(int seconds) {
    intervalNanos = seconds * 1_000_000_000L;
  }

  /** Opens stage {@code name} for {@code by} (its report), closing any other. */
  synchronized void begin(Object by, String name) {
    clear();
    owner = by;
    stage = name;
    start = clock.getAsLong();
    lastShown = start;
    counted.clear();
    notSubmitted.clear();
    jobs.clear();
    total = 0;
    done = 0;
    units = null;
    unit = null;
    startTicker();
  }

  /** Closes the stage {@code by} opened (clearing its terminal line); nothing when another is open. */
  synchronized void end(Object by) {
    if (owner == by && by != null) {
      clear();
      owner = null;
      stage = null;
      units = null;
      unit = null;
    }
  }

  /** Clears the terminal line before another line is printed; the next update shows it again. */
  synchronized void clear() {
    if (shown > 0) {
      terminal.accept("\r" + " ".repeat(shown) + "\r");
      shown = 0;
    }
  }

  /** A Spark job started with these stages ({@code stage id -> tasks}). */
  synchronized void jobStarted(int jobId, Map<Integer, Integer> stageTasks) {
    if (owner == null) {
      return;
    }
    List<Integer> ids = List.copyOf(stageTasks.keySet());
    jobs.put(jobId, ids);
    for (Integer id : ids) {
      if (counted.add(id)) {
        int n = stageTasks.get(id);
        notSubmitted.put(id, n);
        total += n;
      }
    }
    tick();
  }

  /** A Spark stage (attempt) was submitted with {@code tasks} tasks. */
  synchronized void stageSubmitted(int stageId, int attempt, int tasks) {
    if (owner == null || !counted.contains(stageId)) {
      return; // a job started before this stage opened
    }
    if (notSubmitted.remove(stageId) == null && attempt > 0) {
      total += tasks; // a retry runs (some of) its tasks again
    }
    tick();
  }

  /** A task of Spark stage {@code stageId} ended. */
  synchronized void taskEnded(int stageId, boolean successful) {
    if (owner == null || !successful || !counted.contains(stageId)) {
      return;
    }
    done++;
    tick();
  }

  /** A Spark job ended: the stages it never submitted were skipped, their tasks leave the total. */
  synchronized void jobEnded(int jobId) {
    List<Integer> ids = jobs.remove(jobId);
    if (owner == null || ids == null) {
      return;
    }
    for (Integer id : ids) {
      Integer n = notSubmitted.remove(id);
      if (n != null) {
        total -= n;
      }
    }
    tick();
  }

  synchronized Units startUnits(String name, long of) {
    Units u = new Units(this, owner);
    if (owner != null) {
      units = u;
      unit = name;
      unitsTotal = of;
      unitsDone = 0;
      unitsStart = clock.getAsLong();
      tick();
    }
    return u;
  }

  synchronized void unitsDone(Units u, long n) {
    if (owner != null && units == u) {
      unitsDone = n;
      tick();
    }
  }

  synchronized void unitsClosed(Units u) {
    if (units == u) {
      units = null;
      unit = null;
    }
  }

  /** Shows the progress now if it is time to (events call it; so does a timer, once a second's half). */
  synchronized void tick() {
    if (owner == null || intervalNanos == 0) {
      return;
    }
    long now = clock.getAsLong();
    if (onTerminal) {
      if (now - start >= TERMINAL_FIRST_NANOS && now - lastShown >= TERMINAL_EVERY_NANOS) {
        String s = text(now);
        terminal.accept("\r" + s + (s.length() < shown ? " ".repeat(shown - s.length()) : ""));
        shown = s.length();
        lastShown = now;
      }
    } else if (now - lastShown >= intervalNanos) {
      lines.accept(text(now));
      lastShown = now;
    }
  }

  /** The update line at {@code now}. */
  synchronized String text(long now) {
    if (unit != null) {
      return new ProgressEstimate(Math.max(0, unitsDone), Math.max(0, unitsTotal), Math.max(0, now - unitsStart)).line(stage, unit);
    }
    if (total <= 0) {
      return stage + ": " + ProgressEstimate.duration(now - start) + ", no Spark tasks yet";
    }
    return new ProgressEstimate(done, total, Math.max(0, now - start)).line(stage, "tasks so far");
  }

  private void startTicker() {
    if (this != GLOBAL) {
      return;
    }
    synchronized (StageProgress.class) {
      if (ticker == null) {
        ticker =
            Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "kgrag-progress");
                  t.setDaemon(true);
                  return t;
                });
        ticker.scheduleWithFixedDelay(GLOBAL::tick, 500, 500, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** Units a stage counts itself ({@link StageProgress#units}); close it when they are done. */
  public static final class Units implements AutoCloseable {
    private final StageProgress progress;
    private final Object owner;

    private Units(StageProgress progress, Object owner) {
      this.progress = progress;
      this.owner = owner;
    }

    /** {@code n} of the units are done. */
    public void done(long n) {
      if (owner != null) {
        progress.unitsDone(this, n);
      }
    }

    /** Back to counting the stage's Spark tasks. */
    @Override
    public void close() {
      progress.unitsClosed(this);
    }
  }
}
