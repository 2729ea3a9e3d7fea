package io.kgrag.jobs.internal.qa;

import io.kgrag.core.llm.LlmConfig;
import java.io.Serializable;

/**
 * Which side of a retrieval method asks the LLM for a run: its extractor (the question's parsing) and its
 * generator (the answer's writing), each embedded or through the OpenAI-compatible endpoint of
 * {@code spark.kgrag.llm.*}. The config names the environment variable with the API key; the key never
 * travels with the job. Each method's components subclass this and build their parts from it.
 */
public abstract class MethodComponents implements Serializable {
  private static final long serialVersionUID = 1L;

  private final LlmConfig llm;
  private final boolean llmExtractor;
  private final boolean llmGenerator;

  /** @param llm the endpoint, or null when neither side asks it */
  protected MethodComponents(LlmConfig llm, boolean llmExtractor, boolean llmGenerator) {
    if ((llmExtractor || llmGenerator) && llm == null) {
      throw new IllegalArgumentException("the LLM extractor or generator needs the endpoint's configuration");
    }
    this.llm = llmExtractor || llmGenerator ? llm : null;
    this.llmExtractor = llmExtractor;
    this.llmGenerator = llmGenerator;
  }

  protected boolean llmExtractor() {
    return llmExtractor;
  }

  protected boolean llmGenerator() {
    return llmGenerator;
  }

  public String extractorName() {
    return llmExtractor ? "llm:" + llm.model() : "embedded";
  }

  public String generatorName() {
    return llmGenerator ? "llm:" + llm.model() : "extractive";
  }

  /** The endpoint, or null when neither side asks it. */
  public LlmConfig llm() {
    return llm;
  }
}
