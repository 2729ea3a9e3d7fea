package io.kgrag.jobs.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.UserInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lines a stage's progress prints for a sequence of (fake) Spark events on a fake clock. */
class StageProgressTest {
  private static final long S = 1_000_000_000L;

  private long now = 1_000 * S;
  private final List<String> lines = new ArrayList<>();
  private final StringBuilder terminal = new StringBuilder();

  private StageProgress progress(boolean onTerminal, int interval) {
    return new StageProgress(() -> now, lines::add, terminal::append, onTerminal, interval);
  }

  /** {@code n} successful task ends of Spark stage {@code stage}, {@code seconds} apart. */
  private void tasks(StageProgress p, int stage, int n, int seconds) {
    for (int i = 0; i < n; i++) {
      now += seconds * S;
      p.taskEnded(stage, true);
    }
  }

  @Test
  void aLogGetsALineEveryIntervalWithDoneTotalAndTheTimeLeft() {
    StageProgress p = progress(false, 30);
    Object report = new Object();
    p.begin(report, "embed");
    p.jobStarted(0, Map.of(1, 40));
    p.stageSubmitted(1, 0, 40);
    tasks(p, 1, 10, 2); // 20 s: no line yet
    assertEquals(List.of(), lines);
    tasks(p, 1, 5, 2); // 30 s
    p.tick();
    tasks(p, 1, 10, 2); // 50 s
    p.tick();
    tasks(p, 1, 5, 2); // 60 s
    assertEquals(
        List.of("embed: 15/40 tasks so far (37%), 30 s, about 50 s left", "embed: 30/40 tasks so far (75%), 1 min, about 20 s left"), lines);
    p.end(report);
    now += 60 * S;
    p.tick();
    p.taskEnded(1, true);
    assertEquals(2, lines.size(), "nothing once the stage is closed");
    assertEquals("", terminal.toString(), "off a terminal nothing is written raw");
  }

  @Test
  void laterJobsAddTasksSkippedStagesLeaveAndOnlyThisStagesJobsCount() {
    StageProgress p = progress(false, 30);
    p.jobStarted(7, Map.of(20, 100)); // before the stage opened: not counted
    Object report = new Object();
    p.begin(report, "qa");
    p.taskEnded(20, true); // a task of the earlier job, delivered late
    p.jobStarted(8, Map.of(21, 4, 22, 8));
    p.stageSubmitted(21, 0, 4);
    tasks(p, 21, 4, 1);
    p.taskEnded(21, false); // a failed attempt is not done
    p.jobEnded(8); // stage 22 was never submitted: skipped
    assertEquals("qa: 4/4 tasks so far (100%), 4 s", p.text(now));
    p.jobStarted(9, Map.of(21, 4, 23, 6)); // 21 again (already counted), 23 new
    p.stageSubmitted(23, 0, 6);
    tasks(p, 23, 3, 1);
    p.stageSubmitted(23, 1, 2); // a retry of two tasks
    assertEquals("qa: 7/12 tasks so far (58%), 7 s, about 5 s left", p.text(now));
    now += 23 * S;
    p.tick();
    assertEquals(List.of("qa: 7/12 tasks so far (58%), 30 s, about 21 s left"), lines);
  }

  @Test
  void aStageWithoutTasksSaysSo() {
    StageProgress p = progress(false, 30);
    p.begin(new Object(), "gnn");
    now += 31 * S;
    p.tick();
    assertEquals(List.of("gnn: 31 s, no Spark tasks yet"), lines);
  }

  @Test
  void unitsTheStageCountsReplaceItsTasksUntilClosed() {
    StageProgress p = progress(false, 10);
    p.begin(new Object(), "gnn");
    p.jobStarted(0, Map.of(1, 8));
    tasks(p, 1, 8, 1); // 8 s of sampling
    StageProgress.Units epochs = p.startUnits("epochs", 30);
    for (int e = 1; e <= 6; e++) {
      now += 2 * S;
      epochs.done(e);
    }
    assertEquals(List.of("gnn: 1/30 epochs (3%), 2 s", "gnn: 6/30 epochs (20%), 12 s, about 48 s left"), lines,
        "the lines at 10 s and 20 s count the epochs, timed from the training's start");
    epochs.close();
    assertEquals("gnn: 8/8 tasks so far (100%), 20 s", p.text(now));
    epochs.done(7);
    assertEquals("gnn: 8/8 tasks so far (100%), 20 s", p.text(now), "a closed counter changes nothing");
  }

  @Test
  void onATerminalOneLineIsRewrittenInPlaceAndClearedForTheFinalLine() {
    StageProgress p = progress(true, 30);
    Object report = new Object();
    p.begin(report, "embed");
    p.jobStarted(0, Map.of(1, 10));
    now += S;
    p.taskEnded(1, true); // 1 s: too early to show
    assertEquals("", terminal.toString());
    now += S;
    p.taskEnded(1, true); // 2 s
    now += S / 4;
    p.taskEnded(1, true); // within half a second: not rewritten
    now += S / 4;
    p.taskEnded(1, true);
    p.clear(); // another progress line comes: the line goes, and comes back with the next update
    now += 10 * S;
    p.tick();
    p.end(report);
    String shown1 = "embed: 2/10 tasks so far (20%), 2 s";
    String shown2 = "embed: 4/10 tasks so far (40%), 3 s"; // 2.5 s, to the nearest second
    String shown3 = "embed: 4/10 tasks so far (40%), 13 s, about 19 s left";
    assertEquals(
        "\r" + shown1 + "\r" + shown2
            + "\r" + " ".repeat(shown2.length()) + "\r"
            + "\r" + shown3
            + "\r" + " ".repeat(shown3.length()) + "\r",
        terminal.toString());
    assertEquals(List.of(), lines, "on a terminal no log lines");
  }

  @Test
  void aShorterLineOverwritesTheLongerOneBeforeIt() {
    StageProgress p = progress(true, 30);
    p.begin(new Object(), "qa");
    p.jobStarted(0, Map.of(1, 1000));
    now += 3 * S;
    p.tick();
    String first = "qa: 0/1,000 tasks so far (0%), 3 s";
    p.jobEnded(0); // all skipped: 0 tasks
    now += S;
    p.tick();
    String second = "qa: 4 s, no Spark tasks yet";
    assertTrue(second.length() < first.length());
    assertEquals("\r" + first + "\r" + second + " ".repeat(first.length() - second.length()), terminal.toString());
  }

  @Test
  void aStageStoppedByABadInputClearsItsLineForTheError() {
    StageProgress p = progress(true, 30);
    p.begin(new Object(), "gnn");
    now += 3 * S;
    p.tick();
    p.endAny();
    now += 3 * S;
    p.tick();
    String shown = "gnn: 3 s, no Spark tasks yet";
    assertEquals("\r" + shown + "\r" + " ".repeat(shown.length()) + "\r", terminal.toString());
  }

  @Test
  void intervalZeroTurnsUpdatesOffEverywhere() {
    for (boolean onTerminal : new boolean[] {false, true}) {
      StageProgress p = progress(onTerminal, 0);
      p.begin(new Object(), "embed");
      p.jobStarted(0, Map.of(1, 10));
      tasks(p, 1, 10, 60);
      p.tick();
    }
    assertEquals(List.of(), lines);
    assertEquals("", terminal.toString());
  }

  @Test
  void anotherStageOpeningTakesOverAndTheOldOnesEndChangesNothing() {
    StageProgress p = progress(false, 30);
    Object first = new Object();
    Object second = new Object();
    p.begin(first, "questions");
    p.begin(second, "qa");
    p.end(first);
    now += 30 * S;
    p.tick();
    assertEquals(List.of("qa: 30 s, no Spark tasks yet"), lines);
  }

  @Test
  void theIntervalSettingIsAWholeNumberOfSecondsAtLeastZero() {
    assertEquals(StageProgress.DEFAULT_INTERVAL_SECONDS, StageProgress.intervalSeconds(null));
    assertEquals(StageProgress.DEFAULT_INTERVAL_SECONDS, StageProgress.intervalSeconds(" "));
    assertEquals(0, StageProgress.intervalSeconds("0"));
    assertEquals(120, StageProgress.intervalSeconds(" 120 "));
    for (String bad : new String[] {"-1", "30s", "1.5", "often"}) {
      UserInputException e = assertThrows(UserInputException.class, () -> StageProgress.intervalSeconds(bad));
      assertTrue(e.getMessage().startsWith("configuration spark.kgrag.progress.interval=" + bad + " is not a whole number of seconds"), e.getMessage());
      assertTrue(e.getMessage().contains("0 turns them off"), e.getMessage());
    }
  }
}
