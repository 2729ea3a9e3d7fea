package io.kgrag.jobs.internal.pipeline;

import io.kgrag.core.UserInputException;
import io.kgrag.jobs.catalog.KgTable;
import io.kgrag.jobs.internal.stage.Stage;
import io.kgrag.jobs.internal.stage.embed.Embed;
import io.kgrag.jobs.internal.stage.ingest.Ingest;
import io.kgrag.jobs.internal.stage.schema.Schema;
import io.kgrag.jobs.internal.stage.sgrag.Gnn;
import io.kgrag.jobs.internal.stage.sgrag.PathIndex;
import io.kgrag.jobs.internal.stage.sgrag.Paths;
import io.kgrag.jobs.internal.stage.stem.StemGnn;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The index pipeline: its stages, ordered by what they read and write (a stage runs after every stage that writes a
 * table it reads; stages that do not depend on each other keep the order they are listed in below). {@code kgrag
 * index} runs them (or a chosen few) in this order, {@code kgrag reindex} the ones with an incremental update, the
 * demo the ones its method needs, a QA run reads the last complete build of the last stage its method needs, and
 * the Airflow DAG runs them as one chain of tasks (its commands file is checked against this order by a test).
 */
public final class Pipeline {
  private static final List<Stage> STAGES = order(List.of(new Ingest(), new Schema(), new Embed(), new Gnn(), new Paths(), new PathIndex(), new StemGnn()));

  private Pipeline() {}

  /** Every stage, in pipeline order. */
  public static List<Stage> stages() {
    return STAGES;
  }

  /** Every stage's name, in pipeline order. */
  public static List<String> names() {
    return STAGES.stream().map(Stage::name).toList();
  }

  /** The stages {@code kgrag reindex} runs (those with an incremental update), in pipeline order. */
  public static List<String> updatable() {
    return STAGES.stream().filter(Stage::updates).map(Stage::name).toList();
  }

  /**
   * The stage named {@code name} (any case).
   *
   * @throws UserInputException listing the stages, when there is none of that name
   */
  public static Stage named(String name) {
    String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    for (Stage s : STAGES) {
      if (s.name().equals(n)) {
        return s;
      }
    }
    throw new UserInputException("unknown stage '" + String.valueOf(name).replaceAll("\\p{Cntrl}", "?") + "' (stages: " + String.join(", ", names()) + ")");
  }

  /** {@code names} in pipeline order (each checked). */
  public static List<Stage> inOrder(Collection<String> names) {
    Set<String> wanted = new HashSet<>();
    for (String n : names) {
      wanted.add(named(n).name());
    }
    return STAGES.stream().filter(s -> wanted.contains(s.name())).toList();
  }

  /** The last of {@code names} in pipeline order: the stage whose complete build a reader of them waits for. */
  public static String last(Collection<String> names) {
    List<Stage> s = inOrder(names);
    if (s.isEmpty()) {
      throw new IllegalArgumentException("no stage named");
    }
    return s.get(s.size() - 1).name();
  }

  /**
   * {@code stages} ordered so that each comes after every stage that writes a table it reads; stages free to go in
   * either order keep their given order (Kahn's algorithm, the earliest listed ready stage first).
   *
   * @throws IllegalStateException when the stages read and write in a cycle
   */
  public static List<Stage> order(List<Stage> stages) {
    List<Stage> left = new ArrayList<>(stages);
    List<Stage> out = new ArrayList<>();
    while (!left.isEmpty()) {
      Stage ready = null;
      for (Stage s : left) {
        boolean waits = false;
        for (KgTable t : s.reads()) {
          for (Stage other : left) {
            if (other != s && other.writes().contains(t)) {
              waits = true;
            }
          }
        }
        if (!waits) {
          ready = s;
          break;
        }
      }
      if (ready == null) {
        throw new IllegalStateException("the stages " + left.stream().map(Stage::name).toList() + " read and write in a cycle");
      }
      left.remove(ready);
      out.add(ready);
    }
    return List.copyOf(out);
  }
}
