package io.kgrag.core.stem;

import io.kgrag.core.method.Outcome;
import io.kgrag.core.method.QuestionAnswerer;
import io.kgrag.core.method.Trace;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.AnswerStatus;
import io.kgrag.core.qa.GeneratedAnswer;
import io.kgrag.core.qa.QaException;
import io.kgrag.core.qa.QueryGraph;
import java.util.List;

/**
 * STEM for one question: its schema plans (the question understanding's query graphs, or the paper's P1/P2),
 * the guidance graph, anchoring and structure tracing ({@link StemRetriever}, Algorithms 1–2), and the answer
 * from the traced bindings (or P3 over the reasoning chains). Figures per question: decomposition, guidance,
 * anchoring and tracing times, matches, and whether tracing was truncated.
 */
final class StemAnswerer implements QuestionAnswerer {
  private final StemContext ctx;
  private final Decomposer decomposer;
  private final StemRetriever.Session retriever;
  private final AnswerGenerator generator;

  StemAnswerer(StemContext ctx, Decomposer decomposer, StemRetriever.Session retriever, AnswerGenerator generator) {
    this.ctx = ctx;
    this.decomposer = decomposer;
    this.retriever = retriever;
    this.generator = generator;
  }

  @Override
  public Outcome answer(String question, Trace trace) {
    long t0 = System.nanoTime();
    List<SchemaPlan> plans = decomposer.decompose(question);
    trace.metric("decompose_nanos", System.nanoTime() - t0);
    if (plans.isEmpty()) {
      throw new QaException(AnswerStatus.UNABLE, "no schema plan: the question mentions no entity of the graph");
    }
    QueryGraph first = plans.get(0).schema();
    trace.queryGraph(first, i -> ctx.entityIds(first, i));
    StemRetriever.Result ret = retriever.retrieve(plans);
    GeneratedAnswer g = generator.generate(question, first, ret.candidates());
    trace.metric("guidance_nanos", ret.guidanceNanos());
    trace.metric("anchor_nanos", ret.anchorNanos());
    trace.metric("trace_nanos", ret.traceNanos());
    trace.metric("matches", ret.matches());
    trace.metric("truncated", ret.truncated());
    Strategy used = ctx.retriever().config().strategy() != null ? ctx.retriever().config().strategy() : plans.get(0).strategy();
    String note = used.word() + ", " + plans.size() + " plan" + (plans.size() == 1 ? "" : "s") + (ret.note() == null ? "" : "; " + ret.note());
    return new Outcome(g, g.unable() ? AnswerStatus.UNABLE : ret.status(), note);
  }
}
