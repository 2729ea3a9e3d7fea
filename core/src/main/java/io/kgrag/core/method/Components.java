package io.kgrag.core.method;

import io.kgrag.core.llm.LlmConfig;
import java.io.Serializable;

/**
 * Which side of a method asks the LLM in a run: its extractor (the question's parsing: query graph, pattern,
 * keywords, plan or set analysis) and its generator (the answer's writing), each embedded or through the
 * OpenAI-compatible endpoint of {@code llm}. The config names the environment variable with the API key; the
 * key never travels with the job.
 *
 * @param llm the endpoint, null when neither side asks it
 */
public record Components(LlmConfig llm, boolean llmExtractor, boolean llmGenerator) implements Serializable {
  /** The offline default: embedded extractor, extractive answers, no endpoint. */
  public static final Components OFFLINE = new Components(null, false, false);

  public Components {
    if ((llmExtractor || llmGenerator) && llm == null) {
      throw new IllegalArgumentException("the LLM extractor or generator needs the endpoint's configuration");
    }
    if (!llmExtractor && !llmGenerator) {
      llm = null;
    }
  }

  /** The extractor's name in the runs and query_graphs tables: {@code embedded} or {@code llm:<model>}. */
  public String extractorName() {
    return llmExtractor ? "llm:" + llm.model() : "embedded";
  }

  /** The generator's name in the runs table: {@code extractive} or {@code llm:<model>}. */
  public String generatorName() {
    return llmGenerator ? "llm:" + llm.model() : "extractive";
  }
}
