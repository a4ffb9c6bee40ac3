# ÇÑ±¹¾î ÁÖ¼®
import numpy as np
ÿş
