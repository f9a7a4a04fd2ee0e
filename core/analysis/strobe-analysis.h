/* strobe-analysis.h — the analysis library in one include.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-event.h"
#include "strobe-analyzer.h"
#include "strobe-decoder.h"
#include "strobe-info-analyzer.h"
#include "strobe-metadata.h"
#include "strobe-text.h"
#include "strobe-trace-clock.h"
