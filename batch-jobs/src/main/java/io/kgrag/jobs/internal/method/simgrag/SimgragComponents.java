package io.kgrag.jobs.internal.method.simgrag;

import io.kgrag.core.embed.Embedder;
import io.kgrag.core.exemplar.PatternByExample;
import io.kgrag.core.llm.CachingChatClient;
import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.qa.AnswerGenerator;
import io.kgrag.core.qa.QueryGraph;
import io.kgrag.core.qa.embedded.EmbeddedQueryGraphExtractor;
import io.kgrag.core.simgrag.BindingAnswerGenerator;
import io.kgrag.core.simgrag.llm.LlmPatternExtractor;
import io.kgrag.core.simgrag.llm.LlmSubgraphAnswerGenerator;
import io.kgrag.jobs.internal.qa.MethodComponents;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * SimGRAG's query-to-pattern and answer generation for a run: the embedded default (patterns by example
 * from the exemplars, else the star pattern of the embedded extractor with its relations unknown;
 * extractive answers) or the paper's
 * prompts through an OpenAI-compatible endpoint ({@code --extractor llm}, {@code --generator llm}). The
 * config names the environment variable with the API key; the key never travels with the job.
 */
public final class SimgragComponents extends MethodComponents {
  private static final long serialVersionUID = 1L;

  /** A question's patterns, best first. */
  public interface PatternSource {
    List<QueryGraph> patterns(String question);
  }

  /** @param llm the endpoint, or null when neither side asks it */
  public SimgragComponents(LlmConfig llm, boolean llmExtractor, boolean llmGenerator) {
    super(llm, llmExtractor, llmGenerator);
  }

  /** The offline default. */
  public static SimgragComponents embedded() {
    return new SimgragComponents(null, false, false);
  }

  PatternSource patterns(SimgragContext ctx, Embedder embedder, CachingChatClient chat) {
    if (llmExtractor()) {
      LlmPatternExtractor x = new LlmPatternExtractor(Objects.requireNonNull(chat, "chat"));
      return q -> List.of(x.extract(q));
    }
    PatternByExample byExample = ctx.patternByExample(embedder);
    EmbeddedQueryGraphExtractor star = new EmbeddedQueryGraphExtractor(ctx.gazetteer(), ctx.normaliser(embedder));
    return q -> {
      if (byExample != null) {
        List<QueryGraph> out = new ArrayList<>();
        for (PatternByExample.Proposal p : byExample.propose(q)) {
          out.add(p.pattern());
        }
        if (!out.isEmpty()) {
          return out;
        }
      }
      return List.of(withoutRelations(star.extract(q)));
    };
  }

  /**
   * The star with every edge's relation unknown: the words around a mention ("which sport is associated with
   * both ...") rarely name one relation, and as relation text they kept the right relation out of the
   * k^(r) candidates (ERQA dev Hit@1 25.7 % with them, 39.6 % without; bench/RESULTS.md).
   */
  static QueryGraph withoutRelations(QueryGraph g) {
    QueryGraph.Builder b = QueryGraph.builder();
    for (QueryGraph.Node n : g.nodes()) {
      if (n.unknown()) {
        b.unknown(n.typeHint());
      } else {
        b.entity(n.label(), n.description(), n.confidence());
      }
    }
    for (QueryGraph.Edge e : g.edges()) {
      b.edge(e.src(), e.dst(), null);
    }
    if (g.target() >= 0) {
      b.target(g.target());
    }
    return b.build();
  }

  AnswerGenerator generator(CachingChatClient chat) {
    return llmGenerator() ? new LlmSubgraphAnswerGenerator(Objects.requireNonNull(chat, "chat")) : new BindingAnswerGenerator(20);
  }
}
