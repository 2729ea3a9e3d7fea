package io.kgrag.core.simgrag;

import io.kgrag.core.method.Outcome;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.method.Trace;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QueryGraph;
import java.util.List;

/**
 * SimGRAG for one question: its patterns (the question understanding's chains or star, or the paper's prompt), their candidates by vector search and the top-k subgraphs by Graph Semantic Distance
 * ({@link SimgragRetriever}), and the answer from their bindings (or the paper's Table 12 generation). Figures
 * per question: pattern, candidate-search and graph-search times, and GSD expansions.
 */
final class SimgragAnswerer implements QuestionAnswerer {
  /** A question's patterns, best first. */
  interface PatternSource {
    List<QueryGraph> patterns(String question);
  }

  private final SimgragContext ctx;
  private final PatternSource patterns;
  private final SimgragRetriever.Session retriever;
  private final AnswerGenerator generator;

  SimgragAnswerer(SimgragContext ctx, PatternSource patterns, SimgragRetriever.Session retriever, AnswerGenerator generator) {
    this.ctx = ctx;
    this.patterns = patterns;
    this.retriever = retriever;
    this.generator = generator;
  }

  @Override
  public Outcome answer(String question, Trace trace) {
    long t0 = System.nanoTime();
    List<QueryGraph> ps = patterns.patterns(question);
    trace.metric("pattern_nanos", System.nanoTime() - t0);
    SimgragRetriever.Result ret = retriever.retrieve(ps);
    QueryGraph p = ret.pattern();
    trace.queryGraph(p, i -> ctx.entityIds(p, i));
    GeneratedAnswer g = generator.generate(question, p, ret.candidates());
    trace.metric("candidates_nanos", ret.candidateNanos());
    trace.metric("search_nanos", ret.searchNanos());
    trace.metric("expansions", ret.expansions());
    return new Outcome(g, g.unable() ? AnswerStatus.UNABLE : ret.status(), ret.note());
  }
}
