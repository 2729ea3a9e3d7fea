package io.kgrag.jobs.api;

import java.io.Serializable;
import java.util.List;

/**
 * One run of a method, prepared on the driver: the context every task receives (shipped once; plain Java, see
 * {@link io.kgrag.core.method.MethodContext}), the phases every question goes through, and the names of the
 * per-question figures its {@link io.kgrag.core.method.Trace} records, which the runs table aggregates over the
 * questions whose trace holds a query graph: p50 and p95 (a name ending in {@code _nanos} is a duration, reported in µs as
 * {@code <method>.<name>_p50_us}), or a total.
 */
public interface MethodRun {
  /** A one-phase run ({@link Phase#ANSWER}) over {@code context}, its figures named, no side tables. */
  static MethodRun of(Serializable context, List<String> percentiles, List<String> totals) {
    List<String> p = List.copyOf(percentiles);
    List<String> t = List.copyOf(totals);
    return new MethodRun() {
      @Override
      public Serializable context() {
        return context;
      }

      @Override
      public List<String> percentiles() {
        return p;
      }

      @Override
      public List<String> totals() {
        return t;
      }
    };
  }

  /** The context shipped to every task. */
  Serializable context();

  /** The phases, in order: the first gets the question, the last gives its {@link io.kgrag.core.method.Outcome}. */
  default List<Phase> phases() {
    return List.of(Phase.ANSWER);
  }

  /** Figures reported as p50 and p95 (0 for a question that did not record one). */
  List<String> percentiles();

  /** Figures reported as totals over the run's questions. */
  default List<String> totals() {
    return List.of();
  }

  /** Tables the run writes beside answers and evidence (rows a phase gave through {@link Phase.Emit}). */
  default List<io.kgrag.jobs.catalog.KgTable> sideTables() {
    return List.of();
  }

  /** Figures of the run itself (not per question) for the runs table; called after the phases. */
  default java.util.Map<String, Long> runFigures() {
    return java.util.Map.of();
  }
}
